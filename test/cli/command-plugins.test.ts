import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { builtinFaces, planCommand } from '../../plugins/cli/builtin-manifest.ts';
import { runCli, runProcess } from '../helpers/run-cli.ts';

/**
 * Which plugins each command sets up, from the declarations alone, and what a real command line loads.
 *
 * A plugin's *face* is the module the CLI reads without running the plugin: its folder's `index.ts`
 * (or the `*-plugin.ts` that index.ts re-exports), holding its `definePlugin({...})` description, and
 * the few modules that face imports statically: its error catalog (`*-errors.ts`), its hook
 * declarations (`*-hooks.ts`); the CLI-backed delegates' faces are made by the factory
 * `delegates/cli-delegate/index.ts` (`delegates/cli-process/index.ts` is their process library, not a face).
 * Every command, schema, job and run module is behind a lazy `load`.
 */
const repo = fileURLToPath(new URL('../../', import.meta.url));
const isFaceFile = (rel: string) => (/(^|\/)index\.ts$/.test(rel) && rel !== 'delegates/cli-process/index.ts') || /-(plugin|errors|hooks)\.ts$/.test(rel);

const names = (plan: ReturnType<typeof planCommand>) => plan.plugins.map((p) => p.name).sort();
const byName = new Map(builtinFaces.map((p) => [p.name, p]));
const ALL = builtinFaces.map((p) => p.name).sort();
const GATES = ['sluice:gates', ...(byName.get('sluice:gates')?.needs ?? [])];
const DELEGATES = ['sluice:delegates', ...(byName.get('sluice:delegates')?.needs ?? [])];

describe('the plugins each command sets up', () => {
  it('every declared command sets up its own plugin, what the command and that plugin need, and what those need in turn', () => {
    const declared = builtinFaces.flatMap((p) => Object.entries(p.commands ?? {}).map(([command, d]) => ({ owner: p, command, needs: d.needs ?? [] })));
    assert.ok(declared.length >= 35, `${declared.length} commands declared`);
    for (const { owner, command, needs } of declared) {
      const plan = planCommand(command.split(' '));
      const set = new Set(names(plan));
      if (needs.includes('*')) {
        assert.deepEqual([...set].sort(), ALL, `${command} needs every plugin`);
        assert.equal(plan.commands, 'all');
        continue;
      }
      assert.ok(set.has(owner.name), `${command} sets up ${owner.name}`);
      for (const need of needs) assert.ok(set.has(need), `${command} sets up ${need}`);
      for (const name of set) for (const need of byName.get(name)?.needs ?? []) assert.ok(set.has(need), `${command}: ${name} needs ${need}`);
      assert.ok(Array.isArray(plan.commands) && plan.commands.includes(command), `${command} imports its own module`);
    }
  });

  it('lists what the workflow commands set up', () => {
    const plan = (line: string) => names(planCommand(line.split(' ')));
    assert.deepEqual(plan('status'), ['sluice:sdlc-views']);
    assert.deepEqual(plan('gate'), ['sluice:sdlc', 'sluice:sdlc-views', ...GATES].sort());
    assert.deepEqual(plan('init'), ['sluice:sdlc', ...GATES].sort());
    assert.deepEqual(plan('lifecycle record'), ['sluice:lifecycle'], 'recording a stage runs no delegate');
    assert.deepEqual(plan('lifecycle run'), ['sluice:lifecycle', ...DELEGATES].sort());
    assert.deepEqual(plan('tune status'), ['sluice:skill-tune']);
    assert.deepEqual(plan('tune'), ['sluice:skill-tune', ...DELEGATES].sort(), 'the tune group: `tune SKILL` and `tune status`');
    assert.deepEqual(plan('delegate'), ['sluice:delegate', ...DELEGATES].sort());
    assert.deepEqual(plan('errors'), ['sluice:cli']);
    assert.deepEqual(plan('anchor'), ['sluice:cli', 'sluice:lifecycle', 'sluice:sdlc']);
    for (const line of ['plugins', 'mcp', 'worker', 'nonsense', '']) assert.deepEqual(plan(line), ALL, `${line || 'help'} sets up everything`);
  });

  it("`sluice plugins` lists each workflow's commands and schemas as its plugin's fields say them", async () => {
    const r = await runCli(['plugins', '--json', '--cwd', tmpdir()]);
    assert.equal(r.code, 0, r.stderr);
    const { workflows } = JSON.parse(r.stdout) as { workflows: { name: string; plugin: string; commands: string[]; schemas: string[] }[] };
    const lifecycle = workflows.find((w) => w.name === 'lifecycle');
    const face = byName.get('sluice:lifecycle');
    assert.deepEqual(lifecycle?.commands, Object.keys(face?.commands ?? {}));
    assert.deepEqual(lifecycle?.schemas, Object.keys(face?.schemas ?? {}));
    assert.equal(lifecycle?.schemas.length, 12);
  });

  describe('through the CLI from source, with every loaded module traced', () => {
    let dir: string;
    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'sluice-command-plugins-'));
      const init = await traced(['init']);
      assert.equal(init.code, 0, init.stderr);
    });
    after(() => rm(dir, { recursive: true, force: true }));

    let runs = 0;
    /** Runs `sluice ARGS` in the project; returns the plugins it set up and the repository files it loaded. */
    async function traced(args: string[]) {
      const trace = join(dir ?? tmpdir(), `trace-${runs++}.txt`);
      const r = await runProcess(
        process.execPath,
        [
          `--import=${import.meta.resolve('tsx')}`,
          `--import=${import.meta.resolve('../helpers/module-trace.mjs')}`,
          join(repo, 'plugins/cli/main.ts'),
          ...args,
        ],
        {
          cwd: dir,
          env: { ...process.env, NO_COLOR: '1', SLUICE_TRACE_PLUGINS: '1', SLUICE_TEST_MODULE_TRACE: trace },
        },
      );
      const line = /^sluice trace: plugins (.*)$/m.exec(r.stderr)?.[1];
      const modules = (await readFile(trace, 'utf8').catch(() => ''))
        .split('\n')
        .filter((u) => u.startsWith('file:'))
        .map((u) => relative(repo, fileURLToPath(u)))
        .filter((rel) => !rel.startsWith('..') && !rel.startsWith('node_modules'));
      return { ...r, plugins: line === undefined ? undefined : line.split(' ').sort(), modules: [...new Set(modules)] };
    }

    for (const line of ['gate', 'status', 'lifecycle record r1 plan', 'tune status', 'errors'])
      it(`sluice ${line} sets up exactly the plugins its declarations name`, async () => {
        const r = await traced(line.split(' '));
        assert.deepEqual(r.plugins, names(planCommand(line.split(' '))), r.stderr);
        if (line === 'gate' || line.startsWith('lifecycle')) {
          const foreign = r.modules.filter((m) => (m.startsWith('delegates/') || (line === 'gate' && m.startsWith('plugins/lifecycle/'))) && !isFaceFile(m));
          assert.deepEqual(foreign, [], `sluice ${line} loads no delegate${line === 'gate' ? ' or lifecycle' : ''} module beyond their faces`);
          assert.ok(
            r.modules.some((m) => m.startsWith('delegates/')),
            'the trace sees the delegate faces',
          );
        }
        if (line === 'gate')
          assert.ok(r.modules.includes('gates/index.ts') && r.modules.includes('plugins/sdlc/commands/gate-command.ts'), 'and what gate runs');
        else assert.ok(!r.modules.includes('plugins/sdlc/commands/gate-command.ts'), 'a command imports no other command module');
      });
  });
});
