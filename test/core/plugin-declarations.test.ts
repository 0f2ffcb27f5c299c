import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as v from 'valibot';
import { createKernel } from '../../core/kernel/create-kernel.ts';
import { schemaOf } from '../../core/kernel/register-declarations.ts';
import { createMemoryHost } from '../../core/host/memory-host.ts';
import { defineCommand, defineGate, definePlugin } from '../../core/plugin/define.ts';
import { errorCodeEntry } from '../../core/errors/error-codes.ts';
import type { SluiceError } from '../../core/errors/sluice-error.ts';
import type { PluginDefinition } from '../../core/plugin/types.ts';

declare module '../../core/queue/job-queue.ts' {
  interface Jobs {
    'acme:count': { payload: { n: number }; result: number };
  }
}

const host = () => createMemoryHost({ files: { '/project/.keep': '' } });
const kernelOf = (...plugins: PluginDefinition[]) => createKernel({ host: host(), plugins });
const rejectsWith = (plugins: unknown[], code: string, message: RegExp) =>
  assert.rejects(createKernel({ host: host(), plugins: plugins as PluginDefinition[] }), (e: SluiceError) => {
    assert.equal(e.code, code);
    assert.match(e.message, message);
    assert.equal(e.exitCode, 2);
    return true;
  });

describe('plugin descriptions', () => {
  describe('needs', () => {
    it('sets up a plugin after the plugins it needs, whatever order they are given in', async () => {
      const order: string[] = [];
      const p = (name: string, needs?: string[]) => definePlugin({ name, needs, setup: () => void order.push(name) });
      await kernelOf(p('acme-report', ['acme-store']), p('acme-store', ['acme-host']), p('acme-host'));
      assert.deepEqual(order, ['acme-host', 'acme-store', 'acme-report']);
    });

    it('a need that is not loaded is an error naming the plugin and what it needs', async () => {
      await rejectsWith(
        [definePlugin({ name: 'acme-report', needs: ['acme-store'] })],
        'PLUGIN_NEED_MISSING',
        /plugin acme-report needs plugin acme-store, which is not loaded/,
      );
    });

    it('plugins that need each other are an error naming the cycle', async () => {
      await rejectsWith(
        [definePlugin({ name: 'acme-a', needs: ['acme-b'] }), definePlugin({ name: 'acme-b', needs: ['acme-a'] })],
        'PLUGIN_NEED_CYCLE',
        /acme-a → acme-b → acme-a/,
      );
    });

    it("a command's own need must be loaded when that command is", async () => {
      const p = definePlugin({
        name: 'acme-cmds',
        commands: {
          'acme go': {
            needs: ['acme-engine'],
            load: async () => defineCommand({ name: 'acme go', summary: 'go', run: async () => ({ exitCode: 0, data: {} }) }),
          },
        },
      });
      await assert.rejects(createKernel({ host: host(), plugins: [p], commands: ['acme go'] }), {
        code: 'PLUGIN_NEED_MISSING',
        message: /command acme go needs plugin acme-engine/,
      });
      const k = await createKernel({ host: host(), plugins: [p], commands: [] });
      assert.equal(k.commands.has('acme go'), false, 'a command that is not asked for is neither imported nor checked');
    });
  });

  describe('error codes', () => {
    const code = { exit: 1, title: 'the quota is used up', hint: 'wait an hour' } as const;

    it('are in the catalog before setup runs, owned by the plugin', async () => {
      let seen: string | undefined;
      await kernelOf(
        definePlugin({
          name: 'acme-quota',
          errorPrefix: 'ACMEQ',
          errorCodes: { ACMEQ_USED: code },
          setup: () => void (seen = errorCodeEntry('ACMEQ_USED')?.owner),
        }),
      );
      assert.equal(seen, 'acme-quota');
    });

    it('a plugin outside sluice that declares codes must declare its prefix', async () => {
      await rejectsWith(
        [definePlugin({ name: 'acme-noprefix', errorCodes: { NOPREFIX_USED: code } })],
        'PLUGIN_ERROR_CODE_PREFIX',
        /plugin acme-noprefix declares error codes \(NOPREFIX_USED\) without an errorPrefix/,
      );
    });

    it('every code starts with the prefix', async () => {
      await rejectsWith(
        [definePlugin({ name: 'acme-stray', errorPrefix: 'STRAY', errorCodes: { STRAY_OK: code, QUOTA_USED: code } })],
        'PLUGIN_ERROR_CODE_PREFIX',
        /error code QUOTA_USED of plugin acme-stray does not start with its prefix STRAY_/,
      );
    });

    it('a code another plugin owns is a load-time error naming both plugins', async () => {
      await kernelOf(definePlugin({ name: 'acme-first', errorPrefix: 'DUP', errorCodes: { DUP_ONE: code } }));
      const other = { exit: 2, title: 'something else', hint: 'h' } as const;
      await rejectsWith(
        [definePlugin({ name: 'acme-second', errorPrefix: 'DUP', errorCodes: { DUP_ONE: other } })],
        'PLUGIN_ERROR_CODE_COLLISION',
        /prefix DUP of plugin acme-second is already owned by plugin acme-first/,
      );
    });

    it("a prefix where sluice's own codes begin is sluice's", async () => {
      await rejectsWith(
        [definePlugin({ name: 'acme-state', errorPrefix: 'STATE', errorCodes: { STATE_ACME: code } })],
        'PLUGIN_ERROR_CODE_COLLISION',
        /prefix STATE of plugin acme-state is already owned by plugin sluice/,
      );
    });

    it("a built-in plugin's code that is sluice's own is a collision naming both", async () => {
      await rejectsWith(
        [definePlugin({ name: 'sluice:rogue', errorCodes: { USAGE: { exit: 0, title: 'fine', hint: '' } } })],
        'PLUGIN_ERROR_CODE_COLLISION',
        /error code USAGE of plugin sluice:rogue is already owned by plugin sluice/,
      );
    });
  });

  describe('shape', () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      [
        'a schema with neither schema nor load',
        { schemas: { report: { description: 'x' } } },
        /plugin acme-shape: schemas.report must give exactly one of schema and load/,
      ],
      ['a schema without a description', { schemas: { report: { schema: v.string() } } }, /schemas.report must be \{ description, schema \}/],
      ['a command without load', { commands: { report: { needs: [] } } }, /commands.report must be \{ load: \(\) => import\(...\) \}/],
      ['a command named with capitals', { commands: { Report: { load: async () => ({}) } } }, /commands.Report must be lower-case words/],
      ['needs that are not names', { needs: 'acme-store' }, /needs must be a list of plugin names/],
      ['a gate without check', { gates: [{ type: 'lint' }] }, /gates\[0\] must be a definition with type and check\(\)/],
      ['a malformed error code', { errorPrefix: 'ACME', errorCodes: { ACME_X: { exit: 7 } } }, /errorCodes.ACME_X must be \{ exit: 0-3, title, hint \}/],
    ];
    for (const [what, fields, message] of cases)
      it(`${what} is a one-line error naming plugin and field`, async () => {
        await rejectsWith([{ name: 'acme-shape', ...fields }], 'PLUGIN_INVALID', message);
      });

    it('a command module whose command has another name is an error naming the plugin', async () => {
      const p = definePlugin({
        name: 'acme-misnamed',
        commands: { report: { load: async () => defineCommand({ name: 'reports', summary: 's', run: async () => ({ exitCode: 0, data: {} }) }) } },
      });
      await rejectsWith([p], 'PLUGIN_INVALID', /plugin acme-misnamed: commands.report loads command "reports", not "report"/);
    });
  });

  it("a declared job's module is imported on its first run, with the kernel it runs in", async () => {
    let loads = 0;
    const p = definePlugin({
      name: 'acme-jobs',
      jobs: {
        'acme:count': async (kernel) => {
          loads++;
          return async ({ n }) => n + kernel.plugins.length;
        },
      },
    });
    const k = await kernelOf(p);
    assert.equal(loads, 0);
    assert.equal(await k.queue.run('acme:count', { n: 1 }), 2);
    assert.equal(await k.queue.run('acme:count', { n: 2 }), 3);
    assert.equal(loads, 1, 'loaded once');
  });

  it('registers what the fields say: commands loaded on demand, lazy schemas, gates, the workflow from its own fields', async () => {
    let loads = 0;
    const command = defineCommand({
      name: 'acme report',
      summary: 'report',
      output: v.object({ n: v.number() }),
      run: async () => ({ exitCode: 0, data: {} }),
    });
    const p = definePlugin({
      name: 'acme-wf',
      workflow: { description: 'the acme workflow' },
      commands: { 'acme report': { load: async () => (loads++, command) } },
      schemas: { 'acme-file': { description: 'acme.json', load: async () => v.object({ a: v.string() }) } },
      gates: [defineGate({ type: 'acme', id: 'ACME', description: 'acme', input: v.unknown(), check: async () => [] })],
    });
    const idle = await createKernel({ host: host(), plugins: [p], commands: [] });
    assert.equal(loads, 0, 'no command module is imported unless asked for');
    assert.deepEqual(idle.workflows.get('acme-wf'), { name: 'acme-wf', description: 'the acme workflow', commands: ['acme report'], schemas: ['acme-file'] });
    assert.equal(idle.gates.has('acme'), true);
    const k = await kernelOf(p);
    assert.equal(k.commands.get('acme report'), command);
    assert.equal(k.schemas.has('acme-report-output'), true, "a loaded command's output schema is registered with it");
    const entry = k.schemas.require('acme-file');
    assert.equal(entry.schema, undefined);
    assert.equal((await schemaOf(entry)).type, 'object');
  });
});
