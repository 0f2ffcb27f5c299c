import { defineGate, type GateResult } from '../../../core/index.ts';

/** Input of the `spec-backlog` gate; both fields are optional. */
export interface SpecBacklogGateInput {
  /** Repo holding `specs/`, relative to the project root (default: the project root). */
  repo?: string;
  /** What the SDLC planner passes: the project root (the folder holding `.sdlc/`). */
  projectRoot?: string;
  /** Reported (never enforced) when set: the gate is informational. */
  wipCap?: number;
}

/**
 * The Build loop's INFO rows: the backlog read from the specs themselves. Never blocks (severity INFO,
 * passed true), and a project without specs gets a row saying so rather than an error.
 */
export const specBacklogGate = defineGate<SpecBacklogGateInput | undefined>({
  type: 'spec-backlog',
  id: 'INFO-spec-backlog',
  description: 'spec backlog summary from specs/*.md (informational, never blocks)',
  async check(input, { kernel }) {
    const [{ scanSpecs }, { summarizeSpecs, backlogLine }, { parseCacheDir }] = await Promise.all([
      import('./scan-specs.ts'),
      import('./summarize-specs.ts'),
      import('../../sdlc/index.ts'),
    ]);
    const repo = kernel.resolveInProject(input?.repo ?? input?.projectRoot ?? '.', 'spec repo');
    const row = (check: string, message: string): GateResult => ({ gate: 'INFO-spec-backlog', check, passed: true, message, severity: 'INFO' });
    const specs = await scanSpecs(kernel.host, repo, { cacheDir: parseCacheDir(kernel.host) });
    if (specs.missing) return [row('spec backlog', `no specs/ folder in ${kernel.display(repo) || '.'}: the backlog is empty`)];
    const b = summarizeSpecs(repo, specs, input?.wipCap);
    const rows = [row('spec backlog', backlogLine(b))];
    for (const f of b.inFlight) rows.push(row(`in-flight ${f.spec ?? f.file}`, `${f.name ?? f.file} (risk ${f.risk ?? 'unset'}, ${f.file})`));
    for (const i of b.invalid) rows.push(row(`invalid ${i.file}`, i.message));
    if (b.wipCap) rows.push(row('WIP cap', `${b.wipCap.inFlight} in flight, cap ${b.wipCap.cap}${b.wipCap.breached ? ' (breached)' : ''}`));
    return rows;
  },
});
