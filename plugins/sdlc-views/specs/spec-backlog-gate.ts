import { relative } from 'pathe';
import * as v from 'valibot';
import { defineGate, resolveInside, type GateResult } from '../../../core/index.ts';

/** Input of the `spec-backlog` gate; every field is optional, and so is the input. */
export const SpecBacklogGateInputSchema = v.optional(
  v.object({
    /** Repo holding `specs/`, relative to the project root (default: the project root). */
    repo: v.optional(v.string()),
    /** What the SDLC planner passes: the project root (the folder holding `.sdlc/`). */
    projectRoot: v.optional(v.string()),
    /** Reported (never enforced) when set: the gate is informational. */
    wipCap: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  }),
);
export type SpecBacklogGateInput = NonNullable<v.InferOutput<typeof SpecBacklogGateInputSchema>>;

/**
 * The Build loop's INFO rows: the backlog read from the specs themselves. Never blocks (severity INFO,
 * passed true), and a project without specs gets a row saying so rather than an error.
 */
export const specBacklogGate = defineGate({
  type: 'spec-backlog',
  id: 'INFO-spec-backlog',
  description: 'spec backlog summary from specs/*.md (informational, never blocks)',
  input: SpecBacklogGateInputSchema,
  async check(input, { host, projectRoot }) {
    const [{ scanSpecs }, { summarizeSpecs, backlogLine }, { parseCacheDir }] = await Promise.all([
      import('./scan-specs.ts'),
      import('./summarize-specs.ts'),
      import('../../sdlc/index.ts'),
    ]);
    const repo = resolveInside(projectRoot, input?.repo ?? input?.projectRoot ?? '.', 'spec repo');
    const row = (check: string, message: string): GateResult => ({ gate: 'INFO-spec-backlog', check, passed: true, message, severity: 'INFO' });
    const specs = await scanSpecs(host, repo, { cacheDir: parseCacheDir(host) });
    if (specs.missing) return [row('spec backlog', `no specs/ folder in ${relative(projectRoot, repo) || '.'}: the backlog is empty`)];
    const b = summarizeSpecs(repo, specs, input?.wipCap);
    const rows = [row('spec backlog', backlogLine(b))];
    for (const f of b.inFlight) rows.push(row(`in-flight ${f.spec ?? f.file}`, `${f.name ?? f.file} (risk ${f.risk ?? 'unset'}, ${f.file})`));
    for (const i of b.invalid) rows.push(row(`invalid ${i.file}`, i.message));
    if (b.wipCap) rows.push(row('WIP cap', `${b.wipCap.inFlight} in flight, cap ${b.wipCap.cap}${b.wipCap.breached ? ' (breached)' : ''}`));
    return rows;
  },
});
