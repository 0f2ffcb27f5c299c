import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { errorCodeEntry, SluiceError } from '../../core/index.ts';
import { runSluice } from '../sdlc/sluice-cli.ts';
import { installApiCopy } from '../helpers/install-api-copy.ts';
import { trustedEnv } from '../helpers/trusted-env.ts';

/**
 * A code's exit code and hint come from its catalog when the error is printed, not from what the
 * module that raised it happened to import: no module imports a plugin's errors file for its side effect.
 */
describe('error codes resolved when printed', () => {
  it("a workflow's code raised before its catalog is loaded gets the catalog's exit code and hint once the CLI loads the built-in catalogs", async () => {
    // Nothing in this test process has loaded the lifecycle plugin or its catalog.
    assert.equal(errorCodeEntry('COMMIT_DECLINED'), undefined);
    const early = new SluiceError('COMMIT_DECLINED', { file: '.prizmkit/state/workflows/r1.json' });
    const { loadBuiltinErrorCodes } = await import('../../plugins/cli/builtin-manifest.ts');
    await loadBuiltinErrorCodes();
    assert.equal(early.exitCode, 1);
    assert.equal(early.message, 'COMMIT_DECLINED: .prizmkit/state/workflows/r1.json: a person declined the commit');
    assert.match(early.hint, /sluice lifecycle record SLUG commit/);
    assert.equal(errorCodeEntry('COMMIT_DECLINED')?.owner, 'sluice:lifecycle');
  });

  describe('through the CLI', () => {
    let dir: string;
    let env: Record<string, string>;
    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'sluice-plugin-codes-'));
      await writeFile(
        join(dir, 'acme.mjs'),
        `import { definePlugin, SluiceError } from 'sluice';
        export default definePlugin({ name: 'acme-quota', errorPrefix: 'ACME', setup(ctx) {
          ctx.registerErrorCodes({ ACME_QUOTA_USED: { exit: 1, title: 'the AI quota is used up', hint: 'wait for the next hour' } });
          ctx.registerCommand({ name: 'acme-quota', summary: 'raises the registered code', async run() {
            throw new SluiceError('ACME_QUOTA_USED', { file: 'quota.json' }); } });
          ctx.registerCommand({ name: 'acme-typo', summary: 'raises a code nobody declared', async run() {
            throw new SluiceError('ACME_QOUTA_USED', { file: 'quota.json' }); } });
        } });`,
      );
      await writeFile(join(dir, 'sluice.config.yaml'), 'plugins: [./acme.mjs]\n');
      // The plugin imports its own copy of sluice's core, as an installed package gives it.
      await installApiCopy(dir);
      env = await trustedEnv(dir);
    });
    after(() => rm(dir, { recursive: true, force: true }));

    it("a plugin's code registered at setup has its exit code and hint, and `sluice errors` lists it under the plugin", async () => {
      const r = await runSluice(dir, ['acme-quota'], env);
      assert.equal(r.code, 1, r.stderr);
      assert.equal(r.stderr, 'error ACME_QUOTA_USED: quota.json: the AI quota is used up\nhint: wait for the next hour\n');
      const list = await runSluice(dir, ['errors', '--json'], env);
      const { codes } = JSON.parse(list.stdout) as { codes: { code: string; owner: string; exitCode: number }[] };
      assert.deepEqual(
        codes.find((c) => c.code === 'ACME_QUOTA_USED'),
        { code: 'ACME_QUOTA_USED', owner: 'acme-quota', exitCode: 1, title: 'the AI quota is used up', hint: 'wait for the next hour' },
      );
      assert.equal(codes.find((c) => c.code === 'QUEUE_URL_INVALID')?.owner, 'sluice:queue-redis', 'every built-in catalog is listed');
      assert.equal(codes.find((c) => c.code === 'TRUST_STORE_UNSAFE')?.owner, 'sluice:cli');
    });

    it('a code nobody declared (a typo) prints as a usage error naming the code and pointing at the list', async () => {
      const r = await runSluice(dir, ['acme-typo'], env);
      assert.equal(r.code, 2);
      assert.equal(r.stderr, 'error ACME_QOUTA_USED: quota.json: error code is in no catalog\nhint: see `sluice errors` for the declared codes\n');
      const j = await runSluice(dir, ['acme-typo', '--json'], env);
      assert.equal(j.code, 2);
      assert.deepEqual(JSON.parse(j.stdout), {
        ok: false,
        error: {
          code: 'ACME_QOUTA_USED',
          message: 'ACME_QOUTA_USED: quota.json: error code is in no catalog',
          exitCode: 2,
          hint: 'see `sluice errors` for the declared codes',
          file: 'quota.json',
        },
      });
    });

    it("a second pack's plugin declaring a code the first owns stops loading, naming both plugins", async () => {
      const clash = await mkdtemp(join(tmpdir(), 'sluice-plugin-clash-'));
      try {
        await writeFile(join(clash, 'acme.mjs'), await readFile(join(dir, 'acme.mjs'), 'utf8'));
        await writeFile(
          join(clash, 'other.mjs'),
          `import { definePlugin } from 'sluice';
          export default definePlugin({ name: 'other-quota', errorPrefix: 'ACME',
            errorCodes: { ACME_QUOTA_USED: { exit: 2, title: 'another meaning', hint: 'h' } } });`,
        );
        await writeFile(join(clash, 'sluice.config.yaml'), 'plugins: [./acme.mjs, ./other.mjs]\n');
        await installApiCopy(clash);
        const r = await runSluice(clash, ['acme-quota', '--json'], await trustedEnv(clash));
        assert.equal(r.code, 2, r.stdout);
        const { error } = JSON.parse(r.stdout) as { error: { code: string; message: string } };
        assert.equal(error.code, 'PLUGIN_ERROR_CODE_COLLISION');
        // Prefixes are claimed from the descriptions, in the order the config lists the plugins.
        assert.match(error.message, /error code prefix ACME of plugin other-quota is already owned by plugin acme-quota/);
      } finally {
        await rm(clash, { recursive: true, force: true });
      }
    });

    it("a workflow's code raised by another plugin's module (the views read the SDLC state) carries its catalog's hint", async () => {
      const r = await runSluice(dir, ['status'], env);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /^error PROJECT_MISSING: .*\nhint: run `sluice init` or pass --cwd\n$/);
    });
  });
});
