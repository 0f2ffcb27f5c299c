import { fillPlaceholders, type DelegateResult } from '../../core/index.ts';
import type { EvaluationRecord, IterationState } from './iteration-state-schema.ts';
import { extractScoreHeuristically, parseEvaluationJson, type ParsedEvaluation } from './parse-evaluation.ts';
import { filesSection, historySection, skillsSection } from './prompt-sections.ts';
import { loadPrompt, quoted } from './prompt-templates.ts';
import { renderEvaluationMarkdown } from './evaluation-markdown.ts';
import { callRole, failureOf } from './tune-delegate.ts';
import { inRun, workspacePaths as P, type TuneRun } from './tune-workspace.ts';

/**
 * Phase 3: the evaluator grades the run in analysis mode and answers with JSON. A failed call or an
 * answer that is not the JSON format gets one retry; after that the heuristic extraction may find a
 * score in what came back (see `extractScoreHeuristically`); otherwise the iteration has no score.
 * A made-up score never enters the state.
 */
export async function evaluateIteration(run: TuneRun, state: IterationState, round: number): Promise<EvaluationRecord> {
  const { host } = run.kernel;
  const chain = state.execution_mode === 'chain';
  const template = await loadPrompt(host, 'evaluate');
  const skills = state.skills.map((s) => ({ id: s.id, name: s.name, dir: inRun(run, P.snapshot(round, s.id)) }));
  const key = state.chain_order.join(',');
  const skillsText = await skillsSection(host, skills);
  const executionText = await executionSection(run, state, round);
  const prompt = (attempt: number, retryNote: string) =>
    fillPlaceholders(template, {
      iteration: round,
      skill: key,
      attempt,
      scenario: state.scenario,
      skills_section: skillsText,
      execution_section: executionText,
      history: historySection(state, round),
      chain_section: chain
        ? `\nThis was a chain: ${state.chain_order.join(' → ')}. Besides the whole chain, grade each skill on its own part of the work under "skills" (same five dimensions), so the weakest one can be improved.\n`
        : '',
      chain_json: chain
        ? `,\n  "skills": {\n${state.chain_order.map((id) => `    "${id}": {"dimensions": {"clarity": 0, "completeness": 0, "correctness": 0, "effectiveness": 0, "efficiency": 0}, "weaknesses": [], "suggestions": []}`).join(',\n')}\n  }`
        : '',
      retry_note: retryNote,
    });

  const outputs: { attempt: number; result: DelegateResult; rawFile?: string }[] = [];
  let parsed: ParsedEvaluation | undefined;
  let problem = '';
  // An answer with evaluation JSON that is invalid (a dimension missing, null, out of range) has no
  // score: no heuristic may then read the total it states.
  let invalidJson = false;
  for (let attempt = 1; attempt <= 2 && !parsed; attempt++) {
    run.say(`iteration ${round}: evaluating on ${state.backends.evaluator}${attempt > 1 ? ' (retry)' : ''}`);
    const note =
      attempt === 1 ? '' : `\nYour previous answer could not be used (${JSON.stringify(problem)}). Answer again with only the JSON object described above.\n`;
    const result = await callRole(run, state, 'evaluator', {
      prompt: prompt(attempt, note),
      mode: 'analysis',
      cwd: inRun(run, P.iteration(round)),
      addDirs: [inRun(run, P.artifacts(round)), ...skills.map((s) => s.dir)],
      transcript: P.transcript(round, 'evaluate'),
      label: `tune ${round} evaluate`,
    });
    const entry: (typeof outputs)[number] = { attempt, result };
    outputs.push(entry);
    if (result.status !== 'ok') {
      problem = `the evaluator failed: ${failureOf(result)}`;
      // A timeout used the run's whole budget already: another try only doubles the wait.
      if (result.status === 'timeout') break;
      continue;
    }
    const read = parseEvaluationJson(result.text, result.json);
    if (read.ok) parsed = read.evaluation;
    else {
      problem = read.error;
      invalidJson ||= read.shaped;
      entry.rawFile = P.evaluatorOutput(round, attempt);
      await host.writeAtomic(inRun(run, entry.rawFile), result.text);
    }
  }
  // Heuristics only after the retry, newest answer first.
  if (!parsed && !invalidJson) {
    for (const o of [...outputs].reverse()) {
      if (o.result.status !== 'ok') continue;
      parsed = extractScoreHeuristically(o.result.text);
      if (parsed) break;
    }
  }
  const rawFile = outputs
    .map((o) => o.rawFile)
    .filter((f): f is string => f !== undefined)
    .pop();
  const base = { attempts: outputs.length, eval_file: P.evalReport(round), ...(rawFile ? { raw_file: rawFile } : {}) };
  const known = new Set(state.chain_order);
  const record: EvaluationRecord = parsed
    ? {
        ...base,
        status: 'ok',
        score: parsed.score,
        source: parsed.source,
        dimensions: parsed.dimensions,
        skill_scores: Object.fromEntries(
          Object.entries(parsed.skills)
            .filter(([id]) => known.has(id))
            .map(([id, v]) => [id, v.score]),
        ),
        strengths: parsed.strengths,
        weaknesses: parsed.weaknesses,
        suggestions: [
          ...parsed.suggestions,
          ...Object.entries(parsed.skills)
            .filter(([id]) => known.has(id))
            .flatMap(([id, v]) => v.suggestions.map((s) => ({ ...s, target: s.target ? `${id}/${s.target}` : id }))),
        ],
        ...(parsed.source !== 'json'
          ? {
              error: `JSON unusable (${problem}); score recomputed from the five dimension scores in the text`,
            }
          : {}),
      }
    : {
        ...base,
        status: 'failed',
        score: null,
        source: null,
        dimensions: null,
        skill_scores: {},
        strengths: [],
        weaknesses: [],
        suggestions: [],
        error: outputs.every((o) => o.result.status !== 'ok')
          ? problem
          : `EVALUATION_UNPARSEABLE: no usable score after a retry and the heuristic extraction (${problem})`,
      };
  await host.writeAtomic(inRun(run, P.evalReport(round)), renderEvaluationMarkdown(state, round, record, outputs.at(-1)?.result.text ?? ''));
  return record;
}

async function executionSection(run: TuneRun, state: IterationState, round: number): Promise<string> {
  const { host } = run.kernel;
  const execution = state.iterations.find((it) => it.round === round)?.execution;
  const failed = (id: string) => execution?.skills.find((s) => s.id === id && s.status !== 'ok');
  const groups =
    state.execution_mode === 'chain'
      ? state.chain_order.map((id) => ({
          title: `### Skill ${id}${failed(id) ? ' (it failed and the chain went on without its output; grade that too)' : ''}`,
          id,
        }))
      : [{ title: '', id: undefined }];
  const parts: string[] = [];
  for (const g of groups) {
    const summary = await host.readText(inRun(run, P.executorOutput(round, g.id))).catch(() => '');
    const files = await filesSection(host, inRun(run, P.artifacts(round, g.id)), state.execution_mode === 'chain' ? 32 * 1024 : 64 * 1024);
    parts.push(
      [
        g.title,
        summary.trim() ? quoted(summary.trim(), "The executor's closing summary") : "The executor's closing summary: (none)",
        `Files it wrote (${files.count}):\n\n${files.text}`,
      ]
        .filter(Boolean)
        .join('\n\n'),
    );
  }
  return parts.join('\n\n');
}
