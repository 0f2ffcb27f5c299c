import type { ErrorCode, Kernel } from '../../../core/index.ts';
import type { PhaseModel } from '../registry/phase-model.ts';
import { phaseKey } from '../state/phase-id.ts';
import { profileEntryInputProblem } from '../gating/profile-gate-input.ts';
import { packPluginSpecs, packPluginsLoaded } from './pack-plugins.ts';

/** A finding beyond the schema: the dotted path it is about, what is wrong, and its error code. */
export interface SemanticProblem {
  path: string;
  message: string;
  code: ErrorCode;
  /** The plugin whose declaration the entry breaks (a gate's input schema). */
  plugin?: string;
}

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const isPhaseId = (p: unknown): p is string | number => typeof p === 'string' || typeof p === 'number';

/**
 * The rules a profile must keep beyond its schema (phases named exist in the registry, extra gate
 * types are registered and accept the entry's `with:` map, command gates have argv, ids are unique),
 * all of them collected. Read
 * defensively, so `sluice profile validate` can also run them on a profile that failed its schema;
 * loading a pack throws the first one (`checkProfile`).
 */
export function profileProblems(profile: unknown, model: PhaseModel, kernel: Kernel): SemanticProblem[] {
  const out: SemanticProblem[] = [];
  const phaseProblem = (path: string, id: unknown) => {
    if (isPhaseId(id) && !model.get(id))
      out.push({ path, code: 'PROFILE_INVALID', message: `unknown phase ${JSON.stringify(phaseKey(id))}; phases are ${model.ids().join(', ')}` });
  };
  const p = record(profile);
  list(record(p.quality).evaluation_criteria).forEach((c, i) =>
    list(record(c).phases).forEach((id, j) => phaseProblem(`quality.evaluation_criteria.${i}.phases.${j}`, id)),
  );
  const seen = new Set<string>();
  // The pack's own plugins register their gate types when a command that runs gates loads them
  // (trusted, from .sdlc/plugins/); until then (init, profile validate) a type they may add is not known yet.
  const typesKnown = packPluginSpecs(profile).length === 0 || packPluginsLoaded(kernel);
  list(record(p.sluice).gates).forEach((g, i) => {
    const gate = record(g);
    if (typesKnown && typeof gate.type === 'string' && !kernel.gates.has(gate.type))
      out.push({
        path: `sluice.gates.${i}.type`,
        code: 'GATE_TYPE_UNKNOWN',
        message: `unknown gate type ${JSON.stringify(gate.type)}; registered types are ${kernel.gates.names().join(', ')}`,
      });
    const input = profileEntryInputProblem(kernel, g, i);
    if (input) out.push({ ...input, code: 'GATE_INPUT_INVALID' });
    if (gate.type === 'command' && gate.argv === undefined)
      out.push({ path: `sluice.gates.${i}.argv`, code: 'PROFILE_INVALID', message: 'a command gate needs argv: [program, ...args]' });
    if (typeof gate.id === 'string') {
      if (seen.has(gate.id)) out.push({ path: `sluice.gates.${i}.id`, code: 'PROFILE_INVALID', message: `gate id ${gate.id} is used twice` });
      seen.add(gate.id);
    }
    list(gate.phases).forEach((id, j) => phaseProblem(`sluice.gates.${i}.phases.${j}`, id));
  });
  return out;
}

/** Compliance files: every check names a registry phase, and check ids are unique. */
export function complianceProblems(file: unknown, model: PhaseModel): SemanticProblem[] {
  const out: SemanticProblem[] = [];
  const seen = new Set<string>();
  list(record(file).gates).forEach((g, i) => {
    const gate = record(g);
    if (isPhaseId(gate.phase) && !model.get(gate.phase))
      out.push({
        path: `gates.${i}.phase`,
        code: 'COMPLIANCE_INVALID',
        message: `unknown phase ${JSON.stringify(phaseKey(gate.phase))}; phases are ${model.ids().join(', ')}`,
      });
    if (typeof gate.id === 'string') {
      if (seen.has(gate.id)) out.push({ path: `gates.${i}.id`, code: 'COMPLIANCE_INVALID', message: `check id ${gate.id} is used twice` });
      seen.add(gate.id);
    }
  });
  return out;
}
