import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { referencePlugin, runReferenceScript } from '../helpers/reference-scripts.ts';
import { runProcess, sluiceEntry } from '../helpers/run-cli.ts';
import { repoRoot } from '../sdlc-differential/reference-plugin.ts';

/**
 * A repeated `sluice gate` is a ~60 ms command measured against the reference's check_gates.py, and
 * every Node built-in it loads costs start-up time. These are the ones it has no use for when its
 * output goes to a pipe: hashing (the parse cache compares bytes instead), child processes, promise
 * fs (a cache hit writes nothing), the terminal module and perf_hooks (durations use process.hrtime).
 * A project that sluice froze at init does load node:crypto, to check its frozen files' checksums.
 */
const UNUSED = ['crypto', 'child_process', 'fs/promises', 'tty', 'perf_hooks'];

const skip = referencePlugin.skip;
let dir: string;

/** The built-in modules a `sluice COMMAND` run loaded, as Node lists them at exit. */
async function loadsOf(command = 'gate'): Promise<{ modules: string[]; stdout: string; code: number | null }> {
  const list = join(dir, `modules-${Math.random().toString(36).slice(2)}.txt`);
  const run = await runProcess(process.execPath, [join(repoRoot, 'bin', 'sluice.cjs'), '--cwd', join(dir, 'project'), command], {
    env: {
      ...process.env,
      NO_COLOR: '1',
      SLUICE_CACHE_DIR: join(dir, 'cache'),
      NODE_OPTIONS: `--require ${join(dir, 'record.cjs')}`,
      RECORD_MODULES_TO: list,
    },
  });
  const modules = (await readFile(list, 'utf8'))
    .split('\n')
    .filter((m) => m.startsWith('NativeModule '))
    .map((m) => m.slice('NativeModule '.length));
  return { modules, stdout: run.stdout, code: run.code };
}

describe('built-in modules a repeated `sluice gate` or `sluice status` loads', { skip }, () => {
  before(async () => {
    sluiceEntry(); // dist/ as the sources are now
    dir = await mkdtemp(join(tmpdir(), 'sluice-gate-builtins-'));
    await writeFile(
      join(dir, 'record.cjs'),
      "process.on('exit', () => require('node:fs').writeFileSync(process.env.RECORD_MODULES_TO, process.moduleLoadList.join('\\n')));\n",
    );
    const project = join(dir, 'project');
    const made = await runReferenceScript(
      'init_project.py',
      ['--profile', join(referencePlugin.dir!, 'profiles', 'starter', 'profile.yaml'), '--target', project, '--name', 'builtins'],
      dir,
    );
    assert.equal(made.code, 0, made.stderr);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('loads none of the modules it has no use for once the project and its parse cache are settled, and says the same', async () => {
    // The first gate on a project the reference made records its results in the state; the second
    // parses that new state once; from the third on, nothing changes between runs.
    const first = await loadsOf();
    const second = await loadsOf();
    const settled = await loadsOf();
    assert.equal(settled.code, second.code);
    assert.equal(settled.stdout, second.stdout);
    assert.equal(settled.stdout, first.stdout);
    assert.match(settled.stdout, /Phase 0/);
    assert.ok(settled.modules.includes('fs') && settled.modules.includes('vm'), `the list is Node's own: ${settled.modules.length} modules`);
    assert.deepEqual(
      UNUSED.filter((m) => settled.modules.includes(m)),
      [],
    );
    assert.ok(first.modules.includes('fs/promises'), 'the first run, which writes, is seen loading what writing needs');
    const status = await loadsOf('status');
    assert.match(status.stdout, /Discovery/);
    assert.deepEqual(
      UNUSED.filter((m) => status.modules.includes(m)),
      [],
      'status, on the same settled project',
    );
  });
});
