import { DIMENSION_LABELS, DIMENSION_WEIGHTS, DIMENSIONS } from './evaluation-scoring.ts';
import type { EvaluationRecord, IterationState } from './iteration-state-schema.ts';
import { fenced } from './prompt-templates.ts';
import { bulletList } from './prompt-sections.ts';

const SOURCE_TEXT = {
  json: 'the evaluator\u2019s JSON (composite recomputed from the dimensions)',
  'heuristic-dimensions': 'the five dimension scores found in the evaluator\u2019s text (it gave no usable JSON)',
  'heuristic-overall': 'the labelled overall score found in the evaluator\u2019s text (it gave no usable JSON)',
} as const;

/** `iteration-N-eval.md`: what a person reads to see why the iteration scored what it did. */
export function renderEvaluationMarkdown(state: IterationState, round: number, e: EvaluationRecord, lastText: string): string {
  const lines = [`# Iteration ${round}: evaluation`, ''];
  lines.push(
    `Skills: ${state.chain_order.join(state.execution_mode === 'chain' ? ' → ' : ', ')} · evaluator: ${state.backends.evaluator} · attempts: ${e.attempts}`,
    '',
  );
  if (e.status !== 'ok' || e.score === null) {
    lines.push(`**No score.** ${e.error ?? ''}`, '');
    if (e.raw_file) lines.push(`The evaluator's output is saved in \`${e.raw_file}\`.`, '');
    if (lastText.trim()) lines.push('Last answer:', '', fenced(lastText.slice(0, 8000)), '');
    return `${lines.join('\n').trimEnd()}\n`;
  }
  lines.push(`**Score: ${e.score} / 100** (threshold ${state.quality_threshold}), from ${SOURCE_TEXT[e.source ?? 'json']}.`, '');
  if (e.raw_file) lines.push(`The evaluator's unusable output is saved in \`${e.raw_file}\`.`, '');
  if (e.dimensions) {
    lines.push('| Dimension | Weight | Score | Weighted |', '|---|---:|---:|---:|');
    for (const d of DIMENSIONS)
      lines.push(
        `| ${DIMENSION_LABELS[d]} | ${DIMENSION_WEIGHTS[d].toFixed(2)} | ${e.dimensions[d]} | ${(e.dimensions[d] * DIMENSION_WEIGHTS[d]).toFixed(1)} |`,
      );
    lines.push(`| **Composite** | 1.00 | | **${e.score}** |`, '');
  }
  const perSkill = Object.entries(e.skill_scores);
  if (perSkill.length) {
    lines.push('## Per-skill scores', '', '| Skill | Score |', '|---|---:|', ...perSkill.map(([id, s]) => `| ${id} | ${s} |`), '');
  }
  lines.push('## Strengths', '', bulletList(e.strengths), '', '## Weaknesses', '', bulletList(e.weaknesses), '');
  lines.push('## Suggestions', '', bulletList(e.suggestions.map((s) => `**${s.priority}**${s.target ? ` (${s.target})` : ''}: ${s.text}`)), '');
  return `${lines.join('\n').trimEnd()}\n`;
}
