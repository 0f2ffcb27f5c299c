import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defineErrorCodes, errorCodeEntry, ExitCode, listErrorCodes, SluiceError } from '../../core/index.ts';

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
  });
});
