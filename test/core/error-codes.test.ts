import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createKernel, createMemoryHost, defineErrorCodes, definePlugin, errorCodeEntry, ExitCode, listErrorCodes, SluiceError } from '../../core/index.ts';

/** Error codes are owned: the kernel's catalog and each plugin's own, one process-wide table. */
describe('error codes owned by plugins', () => {
  it("a plugin's code carries the exit code and hint it declared, and lists under its owner", () => {
    defineErrorCodes('acme-gates', { ACME_LICENCE_MISSING: { exit: ExitCode.blocked, title: 'licence file missing', hint: 'add LICENSES.md' } });
    const e = new SluiceError('ACME_LICENCE_MISSING' as never, { file: 'LICENSES.md' });
    assert.equal(e.exitCode, 1);
    assert.equal(e.hint, 'add LICENSES.md');
    assert.equal(e.message, 'ACME_LICENCE_MISSING: LICENSES.md: licence file missing');
    assert.deepEqual(
      listErrorCodes().find((c) => c.code === 'ACME_LICENCE_MISSING'),
      { code: 'ACME_LICENCE_MISSING', owner: 'acme-gates', exit: 1, title: 'licence file missing', hint: 'add LICENSES.md' },
    );
  });

  it('the kernel owns its catalog; a second owner cannot take a declared code', () => {
    assert.equal(errorCodeEntry('USAGE')?.owner, 'sluice');
    assert.throws(() => defineErrorCodes('rogue', { USAGE: { exit: ExitCode.ok, title: 'fine', hint: '' } }), /USAGE of rogue is already declared by sluice/);
    assert.equal(new SluiceError('USAGE').exitCode, 2, 'the original entry stands');
  });

  it('a code nobody declared still reports, as a usage error that points at the list', () => {
    const e = new SluiceError('NEVER_DECLARED' as never);
    assert.equal(e.exitCode, 2);
    assert.match(e.hint, /sluice errors/);
    assert.equal(e.message, 'NEVER_DECLARED: error code is in no catalog');
    assert.deepEqual(new SluiceError('NEVER_DECLARED_EITHER' as never, { file: 'a.yaml', message: 'bad' }).toJSON(), {
      code: 'NEVER_DECLARED_EITHER',
      message: 'NEVER_DECLARED_EITHER: a.yaml: bad',
      exitCode: 2,
      hint: 'see `sluice errors` for the declared codes',
      file: 'a.yaml',
    });
  });

  it('an error made before its code was declared reports the entry declared by the time it is read', () => {
    const early = new SluiceError('ACME_LATE' as never, { file: 'x.md' });
    const explained = new SluiceError('ACME_LATE' as never, { message: 'x.md is stale', hint: 'regenerate x.md' });
    defineErrorCodes('acme-late', { ACME_LATE: { exit: ExitCode.blocked, title: 'evidence is stale', hint: 'run the stage again' } });
    assert.equal(early.exitCode, 1);
    assert.equal(early.hint, 'run the stage again');
    assert.equal(early.message, 'ACME_LATE: x.md: evidence is stale');
    assert.equal(early.toJSON().exitCode, 1);
    assert.equal(explained.message, 'ACME_LATE: x.md is stale', 'a message given at the throw stays');
    assert.equal(explained.hint, 'regenerate x.md', 'a hint given at the throw stays');
  });

  it("a plugin registers its codes at setup: a plain object is owned by the plugin, defineErrorCodes' owner stays", async () => {
    const declared = defineErrorCodes('acme-shared', { ACME_SHARED: { exit: ExitCode.blocked, title: 'shared', hint: 'h' } });
    const thrownBeforeSetup = new SluiceError('ACME_QUOTA' as never);
    const plugin = definePlugin({
      name: 'acme-quota',
      errorPrefix: 'ACME',
      setup(ctx) {
        ctx.registerErrorCodes({ ACME_QUOTA: { exit: ExitCode.busy, title: 'quota used up', hint: 'wait an hour' } });
        ctx.registerErrorCodes(declared);
      },
    });
    await createKernel({ host: createMemoryHost(), plugins: [plugin] });
    assert.equal(errorCodeEntry('ACME_QUOTA')?.owner, 'acme-quota');
    assert.equal(errorCodeEntry('ACME_SHARED')?.owner, 'acme-shared');
    assert.equal(thrownBeforeSetup.exitCode, 3);
    assert.equal(thrownBeforeSetup.message, 'ACME_QUOTA: quota used up');

    const rogue = definePlugin({
      name: 'rogue',
      errorPrefix: 'ROGUE',
      setup: (ctx) => ctx.registerErrorCodes({ USAGE: { exit: ExitCode.ok, title: 'fine', hint: '' } }),
    });
    await assert.rejects(createKernel({ host: createMemoryHost(), plugins: [rogue] }), (e: SluiceError) => {
      assert.equal(e.code, 'PLUGIN_ERROR_CODE_PREFIX');
      assert.match(e.message, /error code USAGE of plugin rogue does not start with its prefix ROGUE_/);
      return true;
    });
    assert.equal(new SluiceError('USAGE').exitCode, 2, 'the kernel entry stands');
  });
});
