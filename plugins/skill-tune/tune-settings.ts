import { SluiceError } from '../../core/index.ts';

/**
 * From `sluice tune` flags to the settings of a run. Decisions (documented in the command's help):
 * - `-y` takes the standard preset and single mode unless flags say otherwise.
 * - Without `-y` on a terminal, sluice asks for the preset (unless --preset, or both --max-iterations
 *   and --threshold, are given) and for the mode (only with two or more skills and no --chain).
 * - Without `-y` and without a terminal, it never asks: the standard preset and single mode, with a
 *   note on stderr, so CI runs never hang.
 * - The evaluator may not run on the executor's backend unless --allow-self-evaluation says so:
 *   a model grading its own work inflates scores; the acknowledgement is recorded in the report.
 */
export const PRESETS = {
  quick: { maxIterations: 3, threshold: 70 },
  standard: { maxIterations: 5, threshold: 80 },
  thorough: { maxIterations: 8, threshold: 90 },
} as const;
export type PresetName = keyof typeof PRESETS;
export const PRESET_NAMES = Object.keys(PRESETS) as PresetName[];

export const DEFAULT_BACKENDS = { executor: 'claude', evaluator: 'agy', improver: 'claude' } as const;

export interface TuneFlags {
  scenario?: string;
  preset?: string;
  maxIterations?: string;
  threshold?: string;
  chain?: boolean;
  yes?: boolean;
  executor?: string;
  evaluator?: string;
  improver?: string;
  allowSelfEvaluation?: boolean;
  strictChain?: boolean;
}

export interface TunePlan {
  skillArgs: string[];
  scenario: string;
  mode: 'single' | 'chain';
  preset: PresetName | 'custom';
  maxIterations: number;
  threshold: number;
  backends: { executor: string; evaluator: string; improver: string };
  selfEvaluationAcknowledged: boolean;
  /** Chain mode: a failed skill ends the iteration (`--strict-chain`) instead of the chain going on without it, as maestro's does. */
  stopChainOnFailure?: boolean;
  /** Things the user should know (chosen defaults), printed on stderr. */
  notes: string[];
}

export interface Asker {
  interactive: boolean;
  choose(question: string, choices: string[], defaultChoice?: string): Promise<string>;
}

const usage = (message: string) => new SluiceError('USAGE', { message });

function integerFlag(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < min || n > max)
    throw usage(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
  return n;
}

function numberFlag(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < min || n > max)
    throw usage(`${name} must be a number from ${min} to ${max}, got ${JSON.stringify(value)}`);
  return n;
}

export function splitSkillArgs(arg: string | undefined): string[] {
  const parts = (arg ?? '').split(',').map((s) => s.trim());
  if (parts.length === 0 || parts.every((p) => p === '')) throw usage('name the skill(s) to tune: sluice tune SKILL[,SKILL...] --scenario TEXT');
  if (parts.some((p) => p === '')) throw usage(`empty skill name in ${JSON.stringify(arg)}`);
  return parts;
}

const presetLabel = (p: PresetName) =>
  `${p} (${PRESETS[p].maxIterations} iterations, threshold ${PRESETS[p].threshold})${p === 'standard' ? ' — recommended' : ''}`;

export async function planTune(skillArg: string | undefined, flags: TuneFlags, asker: Asker): Promise<TunePlan> {
  const skillArgs = splitSkillArgs(skillArg);
  const scenario = (flags.scenario ?? '').trim();
  if (scenario === '') throw usage('--scenario TEXT is required: describe the task the skill is tested on');
  if (flags.preset !== undefined && !PRESET_NAMES.includes(flags.preset as PresetName))
    throw usage(`--preset must be one of ${PRESET_NAMES.join(', ')}, got ${JSON.stringify(flags.preset)}`);
  const maxIterations = integerFlag(flags.maxIterations, '--max-iterations', 1, 100);
  const threshold = numberFlag(flags.threshold, '--threshold', 1, 100);
  const notes: string[] = [];
  const ask = !flags.yes && asker.interactive;

  let preset = flags.preset as PresetName | undefined;
  if (preset === undefined && !(maxIterations !== undefined && threshold !== undefined)) {
    if (ask) {
      const answer = await asker.choose('Tune preset:', PRESET_NAMES.map(presetLabel), presetLabel('standard'));
      preset = PRESET_NAMES.find((p) => answer.startsWith(p)) ?? 'standard';
    } else {
      preset = 'standard';
      if (!flags.yes) notes.push('stdin is not a terminal: using the standard preset (5 iterations, threshold 80); pass --preset or -y to choose');
    }
  }
  const base = PRESETS[preset ?? 'standard'];
  const custom =
    preset === undefined || (maxIterations !== undefined && maxIterations !== base.maxIterations) || (threshold !== undefined && threshold !== base.threshold);

  let mode: 'single' | 'chain' = flags.chain ? 'chain' : 'single';
  if (!flags.chain && skillArgs.length > 1 && ask) {
    const answer = await asker.choose(
      'Tune mode:',
      ['single — tune each skill on the scenario together (recommended)', 'chain — run the skills in order, each getting the previous one\u2019s output'],
      'single — tune each skill on the scenario together (recommended)',
    );
    mode = answer.startsWith('chain') ? 'chain' : 'single';
  }
  if (mode === 'chain' && skillArgs.length < 2) throw usage('--chain needs at least two skills, in chain order: sluice tune A,B,C --chain');

  const backends = {
    executor: flags.executor ?? DEFAULT_BACKENDS.executor,
    evaluator: flags.evaluator ?? DEFAULT_BACKENDS.evaluator,
    improver: flags.improver ?? DEFAULT_BACKENDS.improver,
  };
  if (backends.evaluator === backends.executor && !flags.allowSelfEvaluation) {
    throw usage(
      `the evaluator (${backends.evaluator}) is also the executor: a backend grading its own work inflates scores; pick another --evaluator or pass --allow-self-evaluation`,
    );
  }
  return {
    skillArgs,
    scenario,
    mode,
    preset: custom ? 'custom' : (preset ?? 'standard'),
    maxIterations: maxIterations ?? base.maxIterations,
    threshold: threshold ?? base.threshold,
    backends,
    selfEvaluationAcknowledged: backends.evaluator === backends.executor,
    ...(flags.strictChain ? { stopChainOnFailure: true } : {}),
    notes,
  };
}
