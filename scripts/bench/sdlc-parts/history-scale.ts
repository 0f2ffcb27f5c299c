// `status`, `gate` and `audit` of the bundled CLI on a project whose history holds 10, 1,000 and
// 10,000 entries (and the same journal: the history is adopted by one `gate` first), each with its
// wall time and peak RSS (ru_maxrss of the process, reaped with wait4) beside the size of state.yaml;
// the growth of that RSS over the same command on the 10-entry project, per byte of state.yaml (what
// test/sdlc/state-scale.test.ts bounds; the target is 5); and at each size the paired ratio of
// `status` against the reference's generate_status.py on the same file (the interpreter by path,
// `sys.executable`, not a version manager's shim; target <= 1.0 at 10k, <= 0.5 at 10).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { referenceMissing, referenceRoot, repoRoot } from '../../../test/sdlc-differential/reference-plugin.ts';
import { longHistory } from '../../../test/helpers/long-history.ts';

const SIZES = [10, 1000, 10000];
const ROUNDS = 3;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const MEASURE = [
  'import os, sys, time',
  'start = time.monotonic()',
  'pid = os.fork()',
  'if pid == 0:',
  '    null = os.open(os.devnull, os.O_RDWR)',
  '    for fd in (0, 1, 2): os.dup2(null, fd)',
  '    try: os.execvp(sys.argv[1], sys.argv[1:])',
  '    finally: os._exit(127)',
  '_, status, usage = os.wait4(pid, 0)',
  'print((time.monotonic() - start) * 1000, usage.ru_maxrss, os.waitstatus_to_exitcode(status))',
].join('\n');

const pythonExecutable = () => execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();

function measured(python: string, command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<{ ms: number; rssKb: number; exit: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, ['-c', MEASURE, command, ...args], { env: { ...env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.on('error', reject);
    child.on('close', () => {
      const [ms, rssKb, exit] = out.trim().split(' ').map(Number);
      resolve({ ms, rssKb, exit });
    });
  });
}

export async function historyScale(): Promise<Record<string, unknown>> {
  const entry = join(repoRoot, 'dist', 'sluice.mjs');
  if (!existsSync(entry)) return { skipped: 'dist/sluice.mjs missing: run npm run build' };
  const python = pythonExecutable();
  const root = await mkdtemp(join(tmpdir(), 'sluice-bench-history-'));
  const out: Record<string, unknown> = {};
  const baseRss: Record<string, number> = {};
  // Anchors and record key of the bench's own: the history below is adopted as another tool's.
  const env = { ...process.env, XDG_STATE_HOME: join(root, 'state') };
  try {
    for (const n of SIZES) {
      const dir = join(root, String(n));
      const sluice = (...args: string[]) => measured(python, process.execPath, [entry, '--cwd', dir, ...args], env);
      await mkdir(dir, { recursive: true });
      execFileSync(process.execPath, [entry, '--cwd', dir, 'init', '--profile', 'starter'], { stdio: 'ignore', env });
      const statePath = join(dir, '.sdlc', 'state.yaml');
      const text = await readFile(statePath, 'utf8');
      // An even count ends in phase 0: the project stays where init put it.
      await writeFile(statePath, text.replace(/history: \[\]\n?/, `history:\n${longHistory(n, 'bench')}\n`));
      await rm(join(dir, '.sdlc', 'journal.jsonl'));
      await rm(join(root, 'state', 'sluice', 'anchors'), { recursive: true, force: true });
      await sluice('gate', '--json'); // adopts the history: the journal holds it from here on
      const bytes = (await stat(statePath)).size;
      const row: Record<string, unknown> = { stateBytes: bytes, journalBytes: (await stat(join(dir, '.sdlc', 'journal.jsonl'))).size };
      for (const command of ['status', 'gate', 'audit']) {
        const runs = [];
        for (let i = 0; i < ROUNDS; i++) runs.push(await sluice(command, '--json'));
        const rss = median(runs.map((r) => r.rssKb)) * 1024;
        baseRss[command] ??= rss;
        row[command] = {
          ms: Math.round(median(runs.map((r) => r.ms))),
          peakRssMb: Math.round(rss / 1048576),
          rssPerFileByte: Math.round((rss / bytes) * 10) / 10,
          rssGrowthPerFileByte: Math.round((Math.max(0, rss - baseRss[command]) / bytes) * 10) / 10,
          exit: runs[0].exit,
        };
      }
      if (!referenceMissing()) {
        const ratios = [];
        let ref = { ms: 0, rssKb: 0, exit: 0 };
        for (let i = 0; i < ROUNDS; i++) {
          const a = await sluice('status', '--json');
          ref = await measured(python, python, [join(referenceRoot, 'scripts', 'generate_status.py'), '--state', statePath]);
          ratios.push(a.ms / ref.ms);
        }
        row.againstGenerateStatus = {
          ratio: Math.round(median(ratios) * 100) / 100,
          referenceMs: Math.round(ref.ms),
          referencePeakRssMb: Math.round(ref.rssKb / 1024),
          referenceExit: ref.exit,
        };
      }
      out[`entries${n}`] = row;
    }
    return out;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
