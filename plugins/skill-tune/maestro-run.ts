import { join, relative } from 'pathe';
import * as v from 'valibot';
import { SluiceError, type Kernel } from '../../core/index.ts';
import type { EvaluationRecord, ImprovementRecord, IterationRecord, IterationState } from './iteration-state-schema.ts';
import { parseEvaluationJson } from './parse-evaluation.ts';
import { resolveSkill, type ResolvedSkill } from './read-skill.ts';
import { copyTree } from './skill-folders.ts';
import { recordTermination, terminationOf } from './state-transitions.ts';
import { DEFAULT_BACKENDS, PRESETS } from './tune-settings.ts';
import { stateFileOf, workspacePaths as P } from './tune-workspace.ts';

/**
 * A run folder of maestro's skill-iter-tune (`outputs/skill-iter-tune-<ts>/`), read as its phase
 * files write it: `iteration-state.json` with `target_skills`, `test_scenario`, `iterations[]`
 * (`evaluation` with `dimensions` as an array, `improvement.changes_applied`), `backups/<name>/`
 * and `iterations/iteration-N/` (skill-snapshot, eval and changes files). `sluice tune --resume` on
 * it starts a sluice run that carries its history on: the originals from maestro's backups (so
 * `--restore` goes back to before maestro), each iteration with its score recomputed from its
 * dimensions (maestro's fallback "50" with no dimensions is no score), and the next step maestro
 * had not done. The maestro folder is only read.
 */
const MaestroIteration = v.looseObject({
  round: v.pipe(v.number(), v.integer(), v.minValue(1)),
  status: v.optional(v.string()),
  evaluation: v.optional(v.nullable(v.looseObject({}))),
  improvement: v.optional(
    v.nullable(
      v.looseObject({
        changes_applied: v.optional(v.array(v.union([v.string(), v.looseObject({ summary: v.optional(v.string()) })])), []),
        improvement_rationale: v.optional(v.string()),
      }),
    ),
  ),
});

const MaestroStateSchema = v.looseObject({
  target_skills: v.pipe(v.array(v.looseObject({ name: v.pipe(v.string(), v.minLength(1)), path: v.pipe(v.string(), v.minLength(1)) })), v.minLength(1)),
  test_scenario: v.union([
    v.pipe(v.string(), v.minLength(1)),
    v.looseObject({
      description: v.pipe(v.string(), v.minLength(1)),
      requirements: v.optional(v.array(v.string()), []),
      success_criteria: v.optional(v.string()),
    }),
  ]),
  execution_mode: v.optional(v.picklist(['single', 'chain']), 'single'),
  chain_order: v.optional(v.array(v.string()), []),
  max_iterations: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)),
  quality_threshold: v.pipe(v.number(), v.minValue(0), v.maxValue(100)),
  max_errors: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100)), 3),
  started_at: v.optional(v.string()),
  iterations: v.optional(v.array(MaestroIteration), []),
});

type MaestroState = v.InferOutput<typeof MaestroStateSchema>;

/** maestro's state has no `format`; it names `target_skills` and `test_scenario`. */
export const isMaestroState = (raw: unknown): boolean =>
  typeof raw === 'object' && raw !== null && !('format' in raw) && 'target_skills' in raw && 'test_scenario' in raw;

export interface Adoption {
  backends?: Partial<IterationState['backends']>;
  allowSelfEvaluation?: boolean;
}

/** Makes the sluice run that continues the maestro run in `maestroDir`; returns its folder. */
export async function adoptMaestroRun(kernel: Kernel, maestroDir: string, raw: unknown, parent: string, o: Adoption): Promise<string> {
  const file = kernel.display(join(maestroDir, P.state));
  const parsed = v.safeParse(MaestroStateSchema, raw);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const field = v.getDotPath(issue) ?? undefined;
    throw new SluiceError('TUNE_RUN_INVALID', { file, field, message: `not a maestro skill-iter-tune state: ${field ? `${field}: ` : ''}${issue.message}` });
  }
  const m = parsed.output;
  const backends = { ...DEFAULT_BACKENDS, ...o.backends };
  if (backends.evaluator === backends.executor && !o.allowSelfEvaluation)
    throw new SluiceError('USAGE', {
      message: `the evaluator (${backends.evaluator}) is also the executor: pick another --evaluator or pass --allow-self-evaluation`,
    });
  const skills: (ResolvedSkill & { maestroName: string })[] = [];
  for (const s of m.target_skills) skills.push({ maestroName: s.name, ...(await resolveSkill(kernel, s.path)) });
  const idOf = (name: string) => skills.find((s) => s.maestroName === name || s.id === name)?.id ?? name;
  const now = kernel.host.now().toISOString();
  const stamp = now
    .replace(/\.\d+Z$/, '')
    .replace(/[-:]/g, '')
    .replace('T', '-');
  const runId = `skill-tune-${stamp}-maestro`;
  const workDir = join(parent, runId);
  const iterations = m.iterations.slice().sort((a, b) => a.round - b.round);
  // The iteration maestro was in the middle of is done again, unless it has its score already (then it goes on to its improvement).
  const last = iterations.at(-1);
  const lastPending = last && last.status !== 'completed' && !last.improvement;
  const records: IterationRecord[] = [];
  for (const it of iterations) {
    const pending = it === last && lastPending;
    const evaluation = it.evaluation ? importEvaluation(it.evaluation, it.round, m.chain_order.map(idOf)) : null;
    if (pending && (!evaluation || evaluation.score === null)) break;
    const improvement = it.improvement
      ? importImprovement(
          it.improvement,
          it.round,
          skills.map((s) => s.id),
        )
      : null;
    const scored = evaluation !== null && evaluation.score !== null;
    records.push({
      round: it.round,
      phase: pending ? 'evaluated' : scored ? 'done' : 'failed',
      started_at: m.started_at && !Number.isNaN(Date.parse(m.started_at)) ? new Date(m.started_at).toISOString() : now,
      ...(pending ? {} : { finished_at: now }),
      trend: null,
      ...(scored ? {} : { note: `evaluation failed: ${evaluation?.error ?? 'maestro recorded no evaluation'}` }),
      execution: { status: 'ok', skills: [] },
      evaluation,
      improvement: pending ? null : improvement,
    });
  }
  await kernel.host.mkdir(workDir);
  for (const s of skills) {
    const backup = join(maestroDir, 'backups', s.maestroName);
    await copyTree(kernel.host, (await kernel.host.stat(backup))?.kind === 'dir' ? backup : s.dir, join(workDir, P.backup(s.id)));
  }
  for (const r of records) {
    for (const s of skills) {
      const snap = join(maestroDir, 'iterations', `iteration-${r.round}`, 'skill-snapshot', s.maestroName);
      if ((await kernel.host.stat(snap))?.kind === 'dir') await copyTree(kernel.host, snap, join(workDir, P.snapshot(r.round, s.id)));
      else if (r.phase === 'evaluated') await copyTree(kernel.host, s.dir, join(workDir, P.snapshot(r.round, s.id)));
    }
    await copyNote(kernel, join(maestroDir, 'iterations', `iteration-${r.round}`, `iteration-${r.round}-eval.md`), join(workDir, P.evalReport(r.round)));
    await copyNote(kernel, join(maestroDir, 'iterations', `iteration-${r.round}`, `iteration-${r.round}-changes.md`), join(workDir, P.changes(r.round)));
  }
  const scenario =
    typeof m.test_scenario === 'string'
      ? m.test_scenario
      : [
          m.test_scenario.description,
          ...(m.test_scenario.requirements.length ? [`Requirements: ${m.test_scenario.requirements.join('; ')}`] : []),
          ...(m.test_scenario.success_criteria ? [`Success criteria: ${m.test_scenario.success_criteria}`] : []),
        ].join('\n');
  const preset = Object.entries(PRESETS).find(([, p]) => p.maxIterations === m.max_iterations && p.threshold === m.quality_threshold)?.[0];
  let state: IterationState = {
    format: 'sluice-skill-tune/1',
    run_id: runId,
    created_at: now,
    updated_at: now,
    status: 'running',
    scenario,
    execution_mode: m.execution_mode,
    chain_on_failure: 'continue',
    preset: (preset as IterationState['preset'] | undefined) ?? 'custom',
    max_iterations: m.max_iterations,
    quality_threshold: m.quality_threshold,
    max_errors: m.max_errors,
    backends,
    self_evaluation_acknowledged: backends.evaluator === backends.executor,
    adopted_from: relative(kernel.projectRoot, maestroDir),
    skills: skills.map((s) => ({ id: s.id, name: s.name, path: relative(kernel.projectRoot, s.dir) })),
    chain_order: m.execution_mode === 'chain' && m.chain_order.length ? m.chain_order.map(idOf) : skills.map((s) => s.id),
    current_iteration: records.at(-1)?.round ?? 0,
    latest_score: null,
    best: null,
    score_trend: [],
    error_count: 0,
    iterations: [],
    termination: null,
  };
  state = withHistory(state, records);
  // maestro checks termination before it improves: its last finished iteration is checked here (a failed or scored one the loop checks itself).
  const decision = terminationOf(state);
  if (records.at(-1)?.phase === 'done' && decision.terminate) state = recordTermination(state, decision, now);
  await kernel.store.create(stateFileOf(workDir), state);
  return workDir;
}

/** Scores, trend, best and the error count as the loop would have kept them. */
function withHistory(s: IterationState, records: IterationRecord[]): IterationState {
  const out = { ...s, iterations: [] as IterationRecord[] };
  for (const r of records) {
    const score = r.evaluation?.score ?? null;
    if (score === null) {
      out.error_count++;
      out.iterations.push(r);
      continue;
    }
    out.score_trend = [...out.score_trend, score];
    const [a, b] = out.score_trend.slice(-2);
    out.iterations.push({ ...r, trend: out.score_trend.length < 2 ? 'first' : b > a ? 'rising' : b < a ? 'falling' : 'flat' });
    out.latest_score = score;
    out.error_count = 0;
    if (out.best === null || score > out.best.score) out.best = { iteration: r.round, score };
  }
  return out;
}

function importEvaluation(e: Record<string, unknown>, round: number, chainIds: string[]): EvaluationRecord {
  const base = { attempts: 1, eval_file: P.evalReport(round) };
  const read = parseEvaluationJson(JSON.stringify(e));
  if (!read.ok) {
    const stated = typeof e.score === 'number' ? ` (maestro recorded ${e.score})` : '';
    return {
      ...base,
      status: 'failed',
      score: null,
      source: null,
      dimensions: null,
      skill_scores: {},
      strengths: [],
      weaknesses: [],
      suggestions: [],
      error: `EVALUATION_UNPARSEABLE: maestro's evaluation has no usable dimensions${stated}: ${read.error}`,
    };
  }
  const p = read.evaluation;
  const known = new Set(chainIds);
  return {
    ...base,
    status: 'ok',
    score: p.score,
    source: 'json',
    dimensions: p.dimensions,
    skill_scores: Object.fromEntries(Object.entries(p.skills).flatMap(([id, x]) => (known.has(id) ? [[id, x.score]] : []))),
    strengths: p.strengths,
    weaknesses: p.weaknesses,
    suggestions: p.suggestions,
  };
}

function importImprovement(
  i: { changes_applied: (string | { summary?: string })[]; improvement_rationale?: string },
  round: number,
  targets: string[],
): ImprovementRecord {
  const applied = i.changes_applied.map((c) => (typeof c === 'string' ? c : (c.summary ?? ''))).filter((t) => t.trim() !== '');
  return {
    status: applied.length ? 'applied' : 'skipped',
    targets,
    changed_files: [],
    changes_file: P.changes(round),
    ...(applied.length ? { applied } : { reason: i.improvement_rationale ?? 'maestro applied no change' }),
  };
}

async function copyNote(kernel: Kernel, from: string, to: string): Promise<void> {
  const text = await kernel.host.readText(from, { maxBytes: 1024 * 1024 }).catch(() => undefined);
  if (text !== undefined) await kernel.host.writeAtomic(to, text);
}
