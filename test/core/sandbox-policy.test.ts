import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bwrapArgs, chooseSandbox, sandboxPolicy, sbplProfile, type SandboxPolicyInput } from '../../core/index.ts';

const base: SandboxPolicyInput = {
  mode: 'write',
  cwd: '/p',
  projectRoot: '/p',
  userFolders: ['/home/u/.config/sluice', '/home/u/.cache/sluice'],
  installation: ['/opt/sluice/dist'],
};
const rules = (o: Partial<SandboxPolicyInput> = {}) => sandboxPolicy({ ...base, ...o }).rules.map((r) => `${r.access} ${r.path}`);

describe('the OS sandbox policy of a run (pure)', () => {
  it('write mode: the tree as it is, its records, git config and hooks read-only, artifacts open, installation read-only, user folders hidden last', () => {
    assert.deepEqual(rules(), [
      'read /p/.sdlc',
      'write /p/.sdlc/artifacts',
      'write /p/.sdlc/reports',
      'read /p/.prizmkit/state',
      'read /p/.sluice',
      'read /p/sluice.config.yaml',
      'read /p/sluice.config.yml',
      'read /p/sluice.config.json',
      'read /p/.git/config',
      'read /p/.git/hooks',
      'read /opt/sluice/dist',
      'none /home/u/.config/sluice',
      'none /home/u/.cache/sluice',
    ]);
  });

  it('analysis mode: the whole project and working folder read-only', () => {
    assert.deepEqual(rules({ mode: 'analysis', cwd: '/p/sub' }).slice(0, 2), ['read /p', 'read /p/sub']);
    assert.ok(!rules({ mode: 'analysis' }).some((r) => r.startsWith('write')));
  });

  it('a working folder inside a read-only place (a tune iteration under .sluice/) is writable again, its own records not', () => {
    const r = rules({ cwd: '/p/.sluice/runs/t/iteration-1/artifacts', readOnly: ['/p/.sluice/runs/t'] });
    assert.equal(r[0], 'read /p/.sluice/runs/t');
    const at = r.indexOf('write /p/.sluice/runs/t/iteration-1/artifacts');
    assert.ok(at > r.indexOf('read /p/.sluice'), 'the working folder comes after the rule that closed it');
    assert.ok(r.indexOf('read /p/.sluice/runs/t/iteration-1/artifacts/.git/hooks') > at);
  });

  it('an installation that holds the project (a checkout as its own project) is not made read-only', () => {
    assert.ok(!rules({ installation: ['/p'] }).includes('read /p'));
  });

  it('bubblewrap: one bind per rule in order, hidden folders as a read-only tmpfs, hidden files as /dev/null, no pid namespace', () => {
    const args = bwrapArgs([
      { path: '/p/.sdlc', access: 'read', isDir: true },
      { path: '/p/.sdlc/artifacts', access: 'write', isDir: true },
      { path: '/p/.git/hooks', access: 'read', isDir: true },
      { path: '/h/sluice', access: 'none', isDir: true },
      { path: '/h/key', access: 'none', isDir: false },
    ]);
    assert.deepEqual(args.slice(0, 6), ['--bind', '/', '/', '--dev-bind', '/dev', '/dev']);
    assert.ok(args.includes('--die-with-parent') && args.includes('--unshare-user') && !args.includes('--unshare-pid'));
    assert.deepEqual(args.slice(args.indexOf('--die-with-parent') + 1), [
      ...['--bind', '/p', '/p'],
      ...['--ro-bind', '/p/.sdlc', '/p/.sdlc'],
      ...['--bind', '/p/.sdlc/artifacts', '/p/.sdlc/artifacts'],
      // Folders above a read-only one are mount points, so they cannot be renamed away and replaced.
      ...['--bind', '/p/.git', '/p/.git'],
      ...['--ro-bind', '/p/.git/hooks', '/p/.git/hooks'],
      ...['--bind', '/h', '/h'],
      ...['--tmpfs', '/h/sluice', '--remount-ro', '/h/sluice'],
      ...['--ro-bind', '/dev/null', '/h/key'],
    ]);
  });

  it('sandbox-exec: an SBPL profile that allows by default, decides each rule in order, keeps the folders above in place, paths quoted', () => {
    const text = sbplProfile([
      { path: '/p/.sdlc', access: 'read' },
      { path: '/p/.sdlc/artifacts', access: 'write' },
      { path: '/Users/a "b"/.config/sluice', access: 'none' },
    ]);
    assert.equal(
      text,
      [
        '(version 1)',
        '(allow default)',
        '(deny file-write* (subpath "/p/.sdlc"))',
        '(allow file-write* (subpath "/p/.sdlc/artifacts"))',
        '(deny file-read* file-write* (subpath "/Users/a \\"b\\"/.config/sluice"))',
        '(deny file-write* (literal "/p") (literal "/Users") (literal "/Users/a \\"b\\"") (literal "/Users/a \\"b\\"/.config"))',
        '',
      ].join('\n'),
    );
  });

  it('auto uses what is there and says so when nothing is; required fails closed; off is off', () => {
    assert.deepEqual(chooseSandbox('auto', 'bubblewrap'), { use: 'bubblewrap' });
    assert.equal(chooseSandbox('auto', null).use, 'unavailable');
    assert.match(chooseSandbox('auto', null).notice ?? '', /no OS sandbox/);
    assert.deepEqual(chooseSandbox('off', 'bubblewrap'), { use: 'off' });
    assert.throws(
      () => chooseSandbox('required', null),
      (e: Error & { code?: string; exitCode?: number }) => e.code === 'SANDBOX_UNAVAILABLE' && e.exitCode === 2,
    );
  });
});
