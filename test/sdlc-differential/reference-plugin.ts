import { execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from 'js-yaml';
import { referencePlugin, runReferenceScript } from '../helpers/reference-scripts.ts';

/**
 * The reference SDLC plugin (Python 3 + PyYAML), found by test/helpers/reference-scripts.ts
 * (`../shared/reference` beside the repo, or SLUICE_SHARED_DIR). Tests run its scripts as a user
 * would; nothing of it is copied into sluice.
 */
export const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const referenceRoot = referencePlugin.dir ?? resolve(repoRoot, '../shared/reference/claude-code-sdlc');
const scripts = join(referenceRoot, 'scripts');

/** Why the differential suite cannot run here, or undefined when it can. */
export function referenceMissing(): string | undefined {
  return referencePlugin.skip || undefined;
}

/** `python3 <reference>/scripts/NAME ARGS` in `cwd`. */
export const python = runReferenceScript;

/** `node dist/sluice.mjs --cwd DIR ARGS` (the built CLI, as users run it). */
export function sluiceCli(dir: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      [join(repoRoot, 'dist', 'sluice.mjs'), '--cwd', dir, ...args],
      { cwd: dir, env: { ...process.env, NO_COLOR: '1', SLUICE_NO_CACHE: '1', ...env }, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') return fail(error);
        done({ code: typeof error?.code === 'number' ? error.code : 0, stdout, stderr });
      },
    );
  });
}

/**
 * The reference's `generate_handoff_report.py` on a project as it stands (written outside the
 * project, so no artifact appears): exit code, the report, its engagement record rows, and stderr.
 */
export async function referenceHandoff(dir: string): Promise<{ code: number | null; stderr: string; report: string; record: Record<string, string>[] }> {
  const out = join(dir, '..', `${basename(dir)}-handoff.md`);
  const r = await python('generate_handoff_report.py', ['--state', join(dir, '.sdlc', 'state.yaml'), '--output', out, '--force'], dir);
  const report = r.code === 0 ? await readFile(out, 'utf8') : '';
  await rm(out, { force: true });
  const section = report.split('## Engagement record')[1]?.split('\n## ')[0] ?? '';
  const rows = section.split('\n').filter((l) => l.startsWith('| ') && !/^\| Phase \|/.test(l));
  const record = rows.map((l) => {
    const [phase, gate, completed, signedOffBy] = l
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
    return { phase, gate, completed, signedOffBy };
  });
  return { code: r.code, stderr: r.stderr, report, record };
}

export interface ReferenceRow {
  gate: string;
  artifact?: string;
  check?: string;
  name?: string;
  passed: boolean | null;
  message: string;
  severity?: string;
}

// Glue, not a copy: one long-lived Python process per suite answers one JSON request per line by
// calling the reference's own functions: `rows` runs check_phase_gates on the current phase (its CLI
// prints only formatted text), `advance` runs advance_phase.advance as `--confirmed --signed-by`
// would. One interpreter instead of one per check keeps the walk quick on a loaded machine.
const DRIVER = `
import contextlib, io, json, sys
from pathlib import Path
import yaml
sys.path.insert(0, sys.argv[1])
import advance_phase, check_gates, phase_model
for line in sys.stdin:
    req = json.loads(line)
    state_path = Path(req["state"])
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            if req["op"] == "rows":
                state = yaml.safe_load(state_path.read_text(encoding="utf-8"))
                profile = yaml.safe_load((state_path.parent / "profile.yaml").read_text(encoding="utf-8"))
                phase = phase_model.normalize_id(state["current_phase"])
                res = {"phase": phase, "rows": check_gates.check_phase_gates(phase, state, profile, state_path.parent / "artifacts")}
            else:
                res = {"code": advance_phase.advance(state_path, True, req.get("signed_by"))}
    except Exception as e:
        res = {"error": repr(e)}
    res["printed"] = out.getvalue()
    print(json.dumps(res, default=str), flush=True)
`;

/** A running reference driver: `rows()` and `advance()` on one project's state file; `close()` in teardown. */
export interface ReferenceDriver {
  rows(project: string): Promise<{ phase: string; rows: ReferenceRow[] }>;
  advance(project: string, signedBy: string): Promise<{ code: number; printed: string }>;
  close(): Promise<void>;
}

export function startReferenceDriver(): ReferenceDriver {
  const child = spawn('python3', ['-c', DRIVER, scripts], { stdio: ['pipe', 'pipe', 'pipe'] });
  const waiting: ((line: string) => void)[] = [];
  let buffer = '';
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  child.stdout.on('data', (d: Buffer) => {
    buffer += d.toString('utf8');
    for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      waiting.shift()?.(line);
    }
  });
  const closed = new Promise<void>((done) => child.on('close', () => done()));
  let queue = Promise.resolve();
  const ask = <T>(req: Record<string, unknown>): Promise<T> => {
    const answer = queue.then(
      () =>
        new Promise<T>((done, fail) => {
          if (child.exitCode !== null) return fail(new Error(`reference driver exited: ${stderr.trim()}`));
          waiting.push((line) => {
            const res = JSON.parse(line) as T & { error?: string; printed?: string };
            if (res.error) fail(new Error(`reference ${String(req.op)} failed: ${res.error}\n${res.printed ?? ''}`));
            else done(res);
          });
          child.stdin.write(`${JSON.stringify(req)}\n`);
        }),
    );
    queue = answer.then(
      () => undefined,
      () => undefined,
    );
    return answer;
  };
  const state = (project: string) => join(project, '.sdlc', 'state.yaml');
  return {
    rows: (project) => ask({ op: 'rows', state: state(project) }),
    advance: (project, signedBy) => ask({ op: 'advance', state: state(project), signed_by: signedBy }),
    async close() {
      child.stdin.end();
      await closed;
    },
  };
}

/** Every profile the reference ships (a folder under profiles/ holding profile.yaml). */
export function referenceProfiles(): string[] {
  return readdirSync(join(referenceRoot, 'profiles'), { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(referenceRoot, 'profiles', e.name, 'profile.yaml')))
    .map((e) => e.name)
    .sort();
}

export interface RegistryArtifact {
  name: string;
  root: 'phase' | 'repo';
  requiredFor?: string[];
}

export interface RegistryPhase {
  id: string;
  slug: string;
  required: RegistryArtifact[];
}

/** The reference registry's phases in lifecycle order, with their required artifacts. */
export async function referencePhases(): Promise<RegistryPhase[]> {
  const doc = load(await readFile(join(referenceRoot, 'phases', 'phase-registry.yaml'), 'utf8')) as { phases: Record<string, unknown>[] };
  return [...doc.phases]
    .sort((a, b) => Number(a.order) - Number(b.order))
    .map((p) => ({
      id: String(p.id),
      slug: String(p.slug),
      required: (((p.artifacts as Record<string, unknown> | undefined)?.required as unknown[] | undefined) ?? []).map((e): RegistryArtifact => {
        if (typeof e === 'string') return { name: e, root: 'phase' };
        const o = e as { path: string; root?: string; required_for?: string[] };
        return { name: o.path, root: o.root === 'repo' ? 'repo' : 'phase', ...(o.required_for ? { requiredFor: o.required_for } : {}) };
      }),
    }));
}

export interface ComplianceGate {
  phase: string;
  id: string;
  check_type: string;
  artifact?: string;
  required_content?: string[];
}

/** The compliance gates the reference applies for a profile (its frameworks' files in the profile folder). */
export async function referenceCompliance(profileId: string): Promise<ComplianceGate[]> {
  const profile = load(await readFile(join(referenceRoot, 'profiles', profileId, 'profile.yaml'), 'utf8')) as { compliance?: { frameworks?: string[] } };
  const gates: ComplianceGate[] = [];
  for (const fw of profile.compliance?.frameworks ?? []) {
    const file = join(referenceRoot, 'profiles', profileId, 'compliance', `${fw}-gates.yaml`);
    if (!existsSync(file)) continue;
    const doc = load(await readFile(file, 'utf8')) as { gates?: (ComplianceGate & { phase: unknown })[] };
    for (const g of doc.gates ?? []) gates.push({ ...g, phase: String(g.phase) });
  }
  return gates;
}
