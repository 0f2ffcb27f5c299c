// `sluice gate` and `sluice status` against the reference plugin's check_gates.py and
// generate_status.py on the same project (made by its init_project.py, advanced to Design with its
// advance_phase.py, Design's artifacts filled): paired runs, alternating which tool goes first, so
// machine load hits both alike. Reported as the median of the per-pair ratios (sluice ÷ reference;
// target ≤ 0.5 for both), with NODE_EXTRA_CA_CERTS unset and set (Node reads that bundle at startup).
// `gate` and `status` repeat on an unchanged project, so their YAML comes from the parse cache;
// `gateWithoutParseCache` is the first run after a change, every file parsed.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clearPhase, writeStage } from '../../../test/sdlc-differential/fill-artifacts.ts';
import { python, referenceMissing, referencePhases, referenceRoot, repoRoot } from '../../../test/sdlc-differential/reference-plugin.ts';

const ROUNDS = 11;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round2 = (n: number) => Math.round(n * 100) / 100;

function timedRun(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { env, stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', () => resolve(performance.now() - started));
  });
}

/** Paired timings of one sluice command and one reference script; the first round warms the caches and is dropped. */
async function pair(sluice: () => Promise<number>, reference: () => Promise<number>) {
  const ours: number[] = [];
  const theirs: number[] = [];
  const ratios: number[] = [];
  for (let i = 0; i <= ROUNDS; i++) {
    let s: number;
    let r: number;
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
    ratios.push(s / r);
  }
  return { sluiceMs: Math.round(median(ours)), referenceMs: Math.round(median(theirs)), ratio: round2(median(ratios)) };
}

export async function referencePaired(): Promise<Record<string, unknown>> {
  const missing = referenceMissing();
  if (missing) return { skipped: missing };
  const entry = join(repoRoot, 'dist', 'sluice.mjs');
  if (!existsSync(entry)) return { skipped: 'dist/sluice.mjs missing: run npm run build' };
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
    const bundle = process.env.NODE_EXTRA_CA_CERTS ?? ['/etc/ssl/certs/ca-certificates.crt', '/etc/pki/tls/certs/ca-bundle.crt'].find((f) => existsSync(f));
    const variants: [string, NodeJS.ProcessEnv][] = [['NODE_EXTRA_CA_CERTS unset', base]];
    if (bundle) variants.push([`NODE_EXTRA_CA_CERTS=${bundle}`, { ...base, NODE_EXTRA_CA_CERTS: bundle }]);
    const out: Record<string, unknown> = {
      project: 'reference init (starter), advanced to phase 2 (Design), artifacts filled',
      rounds: ROUNDS,
      target: 'ratio <= 0.5',
    };
    for (const [label, env] of variants) {
      const sluice =
        (args: string[], extra: NodeJS.ProcessEnv = {}) =>
        () =>
          timedRun(process.execPath, [entry, '--cwd', dir, ...args], { ...env, ...extra });
      const ref = (script: string) => () => timedRun('python3', [join(scripts, script), '--state', state], base);
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
