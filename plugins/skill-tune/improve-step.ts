import { join, relative } from 'pathe';
import { fillPlaceholders, SluiceError, type Host } from '../../core/index.ts';
import type { ImprovementRecord, IterationState } from './iteration-state-schema.ts';
import { bulletList, inline } from './prompt-sections.ts';
import { loadPrompt, quoted } from './prompt-templates.ts';
import { checkSkillFolder, SKILL_FILE } from './read-skill.ts';
import { changedPaths, copyTree, diffTrees, listTree, syncTree } from './skill-folders.ts';
import { renderChangesMarkdown } from './changes-markdown.ts';
import { describeOutside, watchOutside } from './outside-changes.ts';
import { callRole, failureOf } from './tune-delegate.ts';
import { inRun, skillDirOf, workspacePaths as P, type TuneRun } from './tune-workspace.ts';

/**
 * Phase 4: the improver edits a working copy of the target skills (write mode, cwd = the copy, one
 * sub-folder per skill), never the user's folders directly. Only if it succeeds and every target
 * still passes the skill check are the edits synced into the real skill folders; otherwise the
 * skills are restored from the iteration's snapshot and the rollback is recorded.
 * Targets: every skill in single mode; in chain mode the one with the lowest score (all of them if
 * the evaluator gave no per-skill scores).
 */
export function improvementTargets(state: IterationState, round: number): string[] {
  if (state.execution_mode !== 'chain') return state.chain_order.slice();
  const scores = state.iterations.find((it) => it.round === round)?.evaluation?.skill_scores ?? {};
  const scored = state.chain_order.filter((id) => scores[id] !== undefined);
  if (scored.length === 0) return state.chain_order.slice();
  return [scored.reduce((weakest, id) => (scores[id] < scores[weakest] ? id : weakest))];
}

export async function improveIteration(run: TuneRun, state: IterationState, round: number): Promise<ImprovementRecord> {
  const { kernel } = run;
  const { host } = kernel;
  const evaluation = state.iterations.find((it) => it.round === round)!.evaluation!;
  const targets = improvementTargets(state, round);
  const targetSuggestions = evaluation.suggestions.filter((s) => {
    // Chain mode: a suggestion aimed at another skill of the chain is not this improver's job.
    const aimedAt = state.chain_order.find((id) => s.target === id || s.target?.startsWith(`${id}/`));
    return aimedAt === undefined || targets.includes(aimedAt);
  });
  if (targetSuggestions.length === 0) {
    // As maestro's loop does: with no suggestion to apply, an improver would only edit blind.
    const record: ImprovementRecord = {
      status: 'skipped',
      targets,
      changed_files: [],
      changes_file: P.changes(round),
      reason: `the evaluation made no suggestion${state.execution_mode === 'chain' ? ` for ${targets.join(', ')}` : ''}: nothing to apply`,
    };
    run.say(`iteration ${round}: improvement skipped: ${record.reason}`);
    await host.writeAtomic(inRun(run, P.changes(round)), await renderChangesMarkdown(round, record, '', []));
    return record;
  }
  const skills = state.skills.filter((s) => targets.includes(s.id));
  // The skills must equal the snapshot first: a resumed run may have been killed half-way through a sync.
  for (const s of state.skills) await syncTree(host, inRun(run, P.snapshot(round, s.id)), await skillDirOf(kernel, s));
  const work = inRun(run, P.improveWork(round));
  await host.remove(work, { recursive: true });
  for (const s of skills) await copyTree(host, inRun(run, P.snapshot(round, s.id)), join(work, s.id));

  const skillPaths: string[] = [];
  for (const s of skills) {
    const files = await listTree(host, join(work, s.id));
    skillPaths.push(`- \`${s.id}/\` — skill ${inline(s.name)}: ${files.map((f) => inline(`${s.id}/${f}`)).join(', ')}`);
  }
  const template = await loadPrompt(host, 'improve');
  const prompt = fillPlaceholders(template, {
    iteration: round,
    skill: targets.join(','),
    attempt: 1,
    score: evaluation.score ?? 0,
    threshold: state.quality_threshold,
    scenario: state.scenario,
    skill_paths: skillPaths.join('\n'),
    weaknesses: evaluation.weaknesses.length ? quoted(bulletList(evaluation.weaknesses), 'The weaknesses') : '- (none)',
    suggestions: quoted(bulletList(targetSuggestions.map((s) => `[${s.priority}]${s.target ? ` (${s.target})` : ''} ${s.text}`)), 'The suggestions'),
    eval_file: inRun(run, P.evalReport(round)),
  });
  run.say(`iteration ${round}: improving ${targets.join(', ')} on ${state.backends.improver}`);
  const watch = await watchOutside(run, 'improver', round, [work]);
  const result = await callRole(run, state, 'improver', {
    prompt,
    mode: 'write',
    cwd: work,
    transcript: P.transcript(round, 'improve'),
    label: `tune ${round} improve ${targets.join(',')}`,
  });
  const outside = await watch.settle();

  const base = { targets, changes_file: P.changes(round) };
  let record: ImprovementRecord;
  const diffs: { id: string; file: string; before: string; after: string }[] = [];
  const problems: string[] = [];
  if (outside.length) problems.push(describeOutside('improver', outside));
  if (result.status !== 'ok') problems.push(`the improver failed: ${failureOf(result)}`);
  else {
    for (const s of skills) {
      const invalid = await invalidCopy(host, join(work, s.id), s.id);
      if (invalid) problems.push(invalid);
    }
  }
  if (problems.length) {
    for (const s of state.skills) await syncTree(host, inRun(run, P.snapshot(round, s.id)), await skillDirOf(kernel, s));
    record = {
      ...base,
      status: 'rolled_back',
      changed_files: [],
      reason: `${problems.join('; ')}; the skills were restored from ${P.snapshot(round, '*')} (the rejected copy is kept in ${P.improveWork(round)})`,
      ...(outside.length ? { outside_changes: outside } : {}),
    };
  } else {
    const changed: string[] = [];
    for (const s of skills) {
      const snapshot = inRun(run, P.snapshot(round, s.id));
      const changes = await diffTrees(host, join(work, s.id), snapshot);
      for (const file of changedPaths(changes)) {
        const read = (dir: string) => host.readText(join(dir, file)).catch(() => '');
        diffs.push({ id: s.id, file, before: await read(snapshot), after: await read(join(work, s.id)) });
        changed.push(`${s.id}/${file}`);
      }
      await syncTree(host, join(work, s.id), await skillDirOf(kernel, s));
    }
    await host.remove(work, { recursive: true });
    record = { ...base, status: changed.length ? 'applied' : 'unchanged', changed_files: changed };
  }
  await host.writeAtomic(inRun(run, P.changes(round)), await renderChangesMarkdown(round, record, result.text, diffs));
  return record;
}

/**
 * Why an improved copy cannot become the skill: a symlink or special file (a skill is regular files
 * only, and a link could point anywhere), too many files, or a SKILL.md that fails the check.
 */
async function invalidCopy(host: Host, dir: string, id: string): Promise<string | undefined> {
  try {
    await listTree(host, dir, { special: 'error', display: (p) => `${id}/${relative(dir, p)}` });
  } catch (error) {
    if (error instanceof SluiceError && error.code === 'SKILL_INVALID') return `the improver left ${id} invalid (SKILL_INVALID: ${error.detail})`;
    throw error;
  }
  const check = await checkSkillFolder(host, dir);
  return check.ok ? undefined : `the improver left ${id}/${SKILL_FILE} invalid (${check.field ? `${check.field}: ` : ''}${check.message})`;
}
