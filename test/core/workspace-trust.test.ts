import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as v from 'valibot';
import { defaultConfig } from '../../core/config/config-schema.ts';
import { createMemoryHost } from '../../core/host/memory-host.ts';
import { createKernel } from '../../core/kernel/create-kernel.ts';
import { defineGate, definePlugin } from '../../core/plugin/define.ts';
import { configSubjects, delegateCodeSettings, delegateSubject } from '../../core/trust/config-subjects.ts';
import { diffSubjects, makeManifest, type TrustManifest } from '../../core/trust/trust-subject.ts';
import { createWorkspaceTrust, type TrustRecord } from '../../core/trust/workspace-trust.ts';
import { describeValue, issueMessage } from '../../core/text/quote-value.ts';

const CONFIG = 'plugins: [./p.mjs]\ndelegates:\n  shell: {command: ./ask, model: m}\n  claude: {model: opus, timeout: 60}\n';
const host = (plugin = 'export default 1') => createMemoryHost({ files: { '/project/sluice.config.yaml': CONFIG, '/project/p.mjs': plugin } });
const config = { ...defaultConfig(), plugins: ['./p.mjs'], delegates: { shell: { command: './ask', model: 'm' }, claude: { model: 'opus', timeout: 60 } } };
const manifestOf = async (plugin?: string) =>
  makeManifest(await configSubjects(host(plugin), '/project', config, '/project/sluice.config.yaml', 'sluice.config.yaml'));
const subject = (m: TrustManifest, what: string) => m.subjects.find((s) => s.what === what)!;
const recordOf = (m: TrustManifest): TrustRecord => ({ hash: m.hash, subjects: m.subjects, trustedAt: '2026-01-01T00:00:00Z' });

describe('workspace trust subjects', () => {
  it('the config contributes its plugins, delegates that set a command, the file it runs, and the whole file; model and timeout alone need no trust', async () => {
    const m = await manifestOf();
    assert.deepEqual(
      m.subjects.map((s) => `${s.file} ${s.what}`),
      ['ask run by delegates.shell', 'sluice.config.yaml (whole file)', 'sluice.config.yaml delegates.shell', 'sluice.config.yaml plugins[0]'],
    );
    assert.equal(delegateCodeSettings({ model: 'opus', timeout: 60, retries: 1 }), undefined);
    assert.deepEqual(delegateCodeSettings({ model: 'x', env: { PATH: './bin' } }), { env: { PATH: './bin' } });
    assert.deepEqual(delegateCodeSettings({ someNewKey: 1 }), { someNewKey: 1 }, 'unknown keys fail closed');
    const withEnv = await delegateSubject('sluice.config.yaml', 'claude', { env: { NODE_OPTIONS: '--require ./x.js', API_TOKEN: 'tok-0123456789' } });
    assert.equal(
      withEnv?.shows,
      'claude (installed) (env: {"API_TOKEN":"[REDACTED]","NODE_OPTIONS":"--require ./x.js"})',
      'a person sees what changes the run, never a secret',
    );
    assert.notEqual(
      withEnv?.hash,
      (await delegateSubject('sluice.config.yaml', 'claude', { env: { NODE_OPTIONS: '--require ./x.js', API_TOKEN: 'other-0123456789' } }))?.hash,
      'the secret still counts in the hash',
    );
  });

  it('a changed plugin file changes its hash and the manifest hash, and the diff names it', async () => {
    const before = await manifestOf('export default 1');
    const after = await manifestOf('export default 2');
    assert.notEqual(before.hash, after.hash);
    assert.deepEqual(
      diffSubjects(before.subjects, after.subjects).map((c) => `${c.kind} ${c.subject.what}`),
      ['changed plugins[0]'],
    );
    assert.equal((await manifestOf('export default 1')).hash, before.hash, 'the same content hashes the same');
  });
});

describe('workspace trust decisions', () => {
  it('trusted only by a matching stored record or CI hash; the error names the file, field and change', async () => {
    const m = await manifestOf();
    const untrusted = createWorkspaceTrust({ manifest: async () => m, record: async () => undefined });
    await assert.rejects(untrusted.require([subject(m, 'plugins[0]')]), {
      code: 'WORKSPACE_UNTRUSTED',
      file: 'sluice.config.yaml',
      field: 'plugins[0]',
      message: /\.\/p\.mjs is not trusted \(and 3 more changes\)/,
    });
    await createWorkspaceTrust({ manifest: async () => m, record: async () => recordOf(m) }).require(m.subjects);
    await createWorkspaceTrust({ manifest: async () => m, record: async () => undefined, expectedHash: m.hash }).require(m.subjects);
    await assert.rejects(
      createWorkspaceTrust({ manifest: async () => m, record: async () => undefined, expectedHash: 'sha256:00' }).require([subject(m, 'delegates.shell')]),
      {
        message: /SLUICE_TRUSTED_HASH does not match/,
      },
    );
    const old = await manifestOf('export default 0');
    await assert.rejects(createWorkspaceTrust({ manifest: async () => m, record: async () => recordOf(old) }).require([subject(m, 'plugins[0]')]), {
      field: 'plugins[0]',
      message: /changed since you trusted it/,
    });
  });

  it('content that changed after the review is refused even in a trusted workspace', async () => {
    const m = await manifestOf();
    const trust = createWorkspaceTrust({ manifest: async () => m, record: async () => recordOf(m) });
    const swapped = subject(await manifestOf('export default "swapped"'), 'plugins[0]');
    await assert.rejects(trust.require([swapped]), { field: 'plugins[0]', message: /changed since you trusted it/ });
  });

  it('the kernel asks before it runs a command gate, and runs it once trusted', async () => {
    let ran = 0;
    const gate = defineGate({
      type: 'cmd',
      id: 'cmd',
      description: 'runs argv',
      input: v.object({ argv: v.array(v.string()) }),
      runs: (input) => ({ file: '.sdlc/profile.yaml', what: 'sluice.gates.lint', argv: input.argv }),
      check: async () => (ran++, [{ gate: 'cmd', passed: true, message: 'ok', severity: 'MUST' }]),
    });
    const plugin = definePlugin({ name: 'g', setup: (ctx) => ctx.registerGate(gate) });
    const deny = createWorkspaceTrust({ manifest: async () => makeManifest([]), record: async () => undefined });
    const k = await createKernel({ host: createMemoryHost({ files: { '/project/.keep': '' } }), projectRoot: '/project', plugins: [plugin], trust: deny });
    await assert.rejects(k.runGate('cmd', { argv: ['npm', 'test'] }), { code: 'WORKSPACE_UNTRUSTED', file: '.sdlc/profile.yaml', field: 'sluice.gates.lint' });
    assert.equal(ran, 0);
    const ok = await createKernel({ host: createMemoryHost({ files: { '/project/.keep': '' } }), projectRoot: '/project', plugins: [plugin] });
    assert.equal((await ok.runGate('cmd', { argv: ['npm', 'test'] }))[0].passed, true, 'an embedder without a trust policy runs it');
  });
});

describe('values in error messages', () => {
  it('short one-line values from the project are quoted; long, multi-line or outside values are described', () => {
    assert.equal(describeValue('cobol', true), '"cobol"');
    assert.equal(describeValue('x'.repeat(25), true), 'a string (25 characters)');
    assert.equal(describeValue('a\nb', true), 'a string (3 characters)');
    assert.equal(describeValue('cobol', false), 'a string (5 characters)');
    assert.equal(describeValue(4242, false), 'a number');
    assert.equal(
      issueMessage(
        {
          message: 'Invalid type: Expected Object but received "DB_PASSWORD=hunter2-correct"',
          received: '"DB_PASSWORD=hunter2-correct"',
          input: 'DB_PASSWORD=hunter2-correct',
        },
        true,
      ),
      'Invalid type: Expected Object but received a string (27 characters)',
    );
  });
});
