// `sluice gate` and `sluice status` against the reference plugin's check_gates.py and
// generate_status.py on the same project (made by its init_project.py, advanced to Design with its
// advance_phase.py, Design's artifacts filled): paired runs, alternating which tool goes first, so
// machine load hits both alike. Reported as the median of the per-pair ratios (sluice ÷ reference;
// target ≤ 0.5 for both) of wall time (`ratio`, what a user waits on an idle machine) and of CPU time
// (`cpuRatio`, steady on a busy one), with NODE_EXTRA_CA_CERTS unset and set (Node reads that bundle
// at startup).
// `gate` and `status` repeat on an unchanged project, so their YAML comes from the parse cache;
// `gateWithoutParseCache` is the first run after a change, every file parsed.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { clearPhase, writeStage } from '../../../test/sdlc-differential/fill-artifacts.ts';
import { python, referenceMissing, referencePhases, referenceRoot, repoRoot } from '../../../test/sdlc-differential/reference-plugin.ts';

const ROUNDS = 11;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * Runs one command under a small Python parent that forks, execs and reaps it with wait4, and prints
 * the child's wall time and its CPU time (user + system, microsecond rusage; Node's spawn gives no
 * child rusage). CPU time barely moves with machine load; wall time on a busy machine mostly
 * measures the scheduler, and hits a multi-threaded Node start harder than single-threaded Python.
 */
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
  'print((time.monotonic() - start) * 1000, (usage.ru_utime + usage.ru_stime) * 1000)',
].join('\n');

interface Timing {
  wallMs: number;
  cpuMs: number;
}

/**
 * The interpreter `python3` runs, by path: a version manager's `python3` on PATH (pyenv's is a bash
 * script that runs `pyenv exec`) would add its own start-up, ~40 ms here, to every reference run.
 */
const pythonExecutable = () => execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();

function timedRun(python: string, command: string, args: string[], env: NodeJS.ProcessEnv): Promise<Timing> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, ['-c', MEASURE, command, ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', () => {
      const [wallMs, cpuMs] = out.trim().split(' ').map(Number);
      if (Number.isFinite(wallMs) && Number.isFinite(cpuMs)) resolve({ wallMs, cpuMs });
      else reject(new Error(`could not time ${command} ${args.join(' ')}: ${out}`));
    });
  });
}

/** Paired timings of one sluice command and one reference script; the first round warms the caches and is dropped. */
async function pair(sluice: () => Promise<Timing>, reference: () => Promise<Timing>) {
  const ours: Timing[] = [];
  const theirs: Timing[] = [];
  for (let i = 0; i <= ROUNDS; i++) {
    let s: Timing;
    let r: Timing;
    if (i % 2 === 0) {
      s = await sluice();
      r = await reference();
    } else {
      r = await reference();
      s = await sluice();
    }
    if (i === 0) continue;
    ours.push(s);
    theirs.push(r);
  }
  const ratio = (k: keyof Timing) => round2(median(ours.map((s, i) => s[k] / theirs[i][k])));
  const med = (xs: Timing[], k: keyof Timing) => Math.round(median(xs.map((x) => x[k])));
  return {
    sluiceMs: med(ours, 'wallMs'),
    referenceMs: med(theirs, 'wallMs'),
    ratio: ratio('wallMs'),
    sluiceCpuMs: med(ours, 'cpuMs'),
    referenceCpuMs: med(theirs, 'cpuMs'),
    cpuRatio: ratio('cpuMs'),
  };
}

export async function referencePaired(): Promise<Record<string, unknown>> {
  const missing = referenceMissing();
  if (missing) return { skipped: missing };
  if (!existsSync(join(repoRoot, 'dist', 'sluice.mjs'))) return { skipped: 'dist/sluice.mjs missing: run npm run build' };
  // The `sluice` command as installed (package.json bin), which runs the bundle from dist/.
  const entry = join(repoRoot, 'bin', 'sluice.cjs');
  const root = await mkdtemp(join(tmpdir(), 'sluice-bench-reference-'));
  try {
    const dir = join(root, 'project');
    await mkdir(dir);
    await python('init_project.py', ['--profile', join(referenceRoot, 'profiles', 'starter', 'profile.yaml'), '--target', dir, '--name', 'bench'], dir);
    const phases = await referencePhases();
    for (const phase of phases.slice(0, 3)) {
      await clearPhase(dir, phase);
      await writeStage(dir, phase, 'filled', 'service', []);
      if (phase !== phases[2]) await python('advance_phase.py', ['--state', join(dir, '.sdlc', 'state.yaml'), '--confirmed', '--signed-by', 'bench'], dir);
    }
    const state = join(dir, '.sdlc', 'state.yaml');
    const scripts = join(referenceRoot, 'scripts');
    const base: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
    delete base.NODE_EXTRA_CA_CERTS;
    // bench.ts imports every section, and a reliability helper sets SLUICE_NO_CACHE in this process:
    // inherited, it made every repeated run a cold one. Only gateWithoutParseCache turns the cache off.
    delete base.SLUICE_NO_CACHE;
    const bundle = process.env.NODE_EXTRA_CA_CERTS ?? ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt'].find((f) => existsSync(f));
    const variants: [string, NodeJS.ProcessEnv][] = [['NODE_EXTRA_CA_CERTS unset', base]];
    if (bundle) variants.push([`NODE_EXTRA_CA_CERTS=${bundle}`, { ...base, NODE_EXTRA_CA_CERTS: bundle }]);
    const py = pythonExecutable();
    const out: Record<string, unknown> = {
      python: py,
      project: 'reference init (starter), advanced to phase 2 (Design), artifacts filled',
      rounds: ROUNDS,
      target: 'ratio <= 0.5',
      // Above the core count, wall times say more about the scheduler than about either tool.
      loadAverageAtStart: round2(loadavg()[0]),
    };
    for (const [label, env] of variants) {
      const sluice =
        (args: string[], extra: NodeJS.ProcessEnv = {}) =>
        () =>
          timedRun(py, process.execPath, [entry, '--cwd', dir, ...args], { ...env, ...extra });
      const ref = (script: string) => () => timedRun(py, py, [join(scripts, script), '--state', state], base);
      out[label] = {
        gate: await pair(sluice(['gate']), ref('check_gates.py')),
        status: await pair(sluice(['status']), ref('generate_status.py')),
        // The first gate after the state changed parses every file: the parse cache turned off.
        gateWithoutParseCache: await pair(sluice(['gate'], { SLUICE_NO_CACHE: '1' }), ref('check_gates.py')),
      };
    }
    return out;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
