import assert from 'node:assert/strict';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../helpers/run-cli.ts';
import { installApiCopy } from '../helpers/install-api-copy.ts';
import { trustedEnv } from '../helpers/trusted-env.ts';

const project = async (files: Record<string, string> = {}) => {
  const dir = await mkdtemp(join(tmpdir(), 'sluice-cli-'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
};

describe('sluice CLI', () => {
  it('--version prints the package version', async () => {
    const pkg = JSON.parse(await readFile('package.json', 'utf8')) as { version: string };
    const r = await runCli(['--version']);
    assert.equal(r.code, 0);
    assert.equal(r.stdout.trim(), pkg.version);
  });

  it('--help lists the commands and exits 0', async () => {
    const r = await runCli(['--help']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /plugins/);
    assert.match(r.stdout, /schema/);
    assert.match(r.stdout, /--json/);
  });

  it('an unknown command is a one-line usage error with exit code 2', async () => {
    const r = await runCli(['frobnicate']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^error UNKNOWN_COMMAND: unknown command 'frobnicate'/);
    assert.equal(r.stdout, '');
    const typo = await runCli(['statsu']);
    assert.equal(typo.code, 2);
    assert.match(typo.stderr.split('\n')[0], /^error UNKNOWN_COMMAND: unknown command 'statsu' \(Did you mean status\?\)$/);
  });

  it('plugins --json prints one JSON document listing plugins, hooks and jobs', async () => {
    const r = await runCli(['plugins', '--json']);
    assert.equal(r.code, 0);
    const doc = JSON.parse(r.stdout) as { plugins: { name: string }[]; hooks: { name: string; kind: string }[]; jobs: { name: string }[] };
    assert.ok(doc.plugins.some((p) => p.name === 'sluice:cli'));
    assert.ok(doc.hooks.some((h) => h.name === 'queue:progress' && h.kind === 'parallel'));
    assert.ok(doc.jobs.some((j) => j.name === 'delegate:run'));
  });

  it('schema config prints a JSON Schema generated from the valibot schema', async () => {
    const r = await runCli(['schema', 'config']);
    assert.equal(r.code, 0);
    const schema = JSON.parse(r.stdout) as { properties: Record<string, { type?: string; minimum?: number }> };
    assert.equal(schema.properties.concurrency.type, 'integer');
    assert.equal(schema.properties.concurrency.minimum, 1);
    const unknown = await runCli(['schema', 'nope']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /SCHEMA_UNKNOWN/);
  });

  it('a malformed config is a one-line error naming the file and line, exit 2', async () => {
    const dir = await project({ 'sluice.config.yaml': 'concurrency: 2\nplugins: [a, b\n' });
    const r = await runCli(['plugins', '--cwd', dir]);
    assert.equal(r.code, 2);
    const [first] = r.stderr.split('\n');
    assert.match(first, /^error CONFIG_MALFORMED: sluice\.config\.yaml: Flow sequence .* \(line 3, column 1\)$/);
  });

  it('a config value of the wrong type names the field, exit 2', async () => {
    const dir = await project({ 'sluice.config.json': '{"concurrency": "many"}' });
    const r = await runCli(['plugins', '--json', '--cwd', dir]);
    assert.equal(r.code, 2);
    const doc = JSON.parse(r.stdout) as { error: { code: string; file: string; field: string } };
    assert.equal(doc.error.code, 'CONFIG_INVALID');
    assert.equal(doc.error.file, 'sluice.config.json');
    assert.equal(doc.error.field, 'concurrency');
  });

  it('loads a plugin from a path in the config and runs its command', async () => {
    const plugin = `export default {
      name: 'acme',
      setup(ctx) {
        ctx.registerCommand({ name: 'hello', summary: 'greet', args: ['<who>'], options: [{ flags: '--loud', description: 'shout' }],
          async run({ args, options }) { const text = 'hello ' + args[0]; return { exitCode: 0, data: { text }, human: options.loud ? text.toUpperCase() : text }; } });
      },
    };`;
    const dir = await project({ 'acme.mjs': plugin, 'sluice.config.yaml': 'plugins: [./acme.mjs]\n' });
    // The test is the person who reviewed the plugin (as a CI host would, by hash).
    const env = await trustedEnv(dir);
    const r = await runCli(['hello', 'world', '--loud', '--cwd', dir], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'HELLO WORLD');
    const j = await runCli(['--json', '--cwd', dir, 'hello', 'you'], { env });
    assert.deepEqual(JSON.parse(j.stdout), { ok: true, text: 'hello you' });
  });

  it('a plugin that fails to load is named in the error, exit 2', async () => {
    const dir = await project({
      'bad.mjs': "export default { name: 'acme-bad', setup() { throw new Error('no licence'); } };",
      'sluice.config.yaml': 'plugins: [./bad.mjs]\n',
    });
    const r = await runCli(['plugins', '--cwd', dir], { env: await trustedEnv(dir) });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /plugin acme-bad.*no licence/);
  });

  it('a missing argument is a usage error with exit code 2', async () => {
    const r = await runCli(['--concurrency', 'zero', 'plugins']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--concurrency must be an integer/);
  });
});

describe('plugin API package', () => {
  it("a plugin can import definePlugin and SluiceError from 'sluice'; its errors keep their code and exit code", async () => {
    const dir = await project({ 'sluice.config.yaml': 'plugins: [./acme.mjs]\n' });
    await installApiCopy(dir);
    await writeFile(
      join(dir, 'acme.mjs'),
      `import { definePlugin, SluiceError } from 'sluice';
      export default definePlugin({ name: 'acme-api', setup(ctx) {
        ctx.registerCommand({ name: 'acme-check', summary: 'org check', async run() { throw new SluiceError('WIP_CAP_BREACHED', { message: 'too many specs in flight' }); } });
      } });`,
    );
    const r = await runCli(['acme-check', '--cwd', dir], { env: await trustedEnv(dir) });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /WIP_CAP_BREACHED: too many specs in flight/);
  });
});
