import { SluiceError, type Kernel } from '../../../core/index.ts';
import type { PhaseModel } from '../registry/phase-model.ts';
import type { ComplianceFile } from './compliance-schema.ts';
import type { Profile } from './profile-schema.ts';
import { complianceProblems, profileProblems, type SemanticProblem } from './profile-rules.ts';

/** Frameworks a profile enforces (`none` means none). */
export function profileFrameworks(profile: Profile): string[] {
  return [...new Set((profile.compliance?.frameworks ?? []).filter((f) => f !== 'none'))];
}

/**
 * Loading a pack: the first rule a profile breaks beyond its schema is an error (see profile-rules.ts).
 * `runsGates: false` (commands that only read results: audit, report) skips whether extra gate types
 * are registered and accept their `with:` maps, since those commands run no gate.
 */
export function checkProfile(profile: Profile, model: PhaseModel, kernel: Kernel, display: string, o: { runsGates?: boolean } = {}): void {
  const problems = profileProblems(profile, model, kernel);
  const gateOnly = new Set(['GATE_TYPE_UNKNOWN', 'GATE_INPUT_INVALID']);
  throwFirst(o.runsGates === false ? problems.filter((p) => !gateOnly.has(p.code)) : problems, display);
}

/** Every check of a compliance file names a registry phase, and ids are unique. */
export function checkCompliance(file: ComplianceFile, model: PhaseModel, display: string): void {
  throwFirst(complianceProblems(file, model), display);
}

function throwFirst(problems: SemanticProblem[], display: string): void {
  const [first] = problems;
  if (first) throw new SluiceError(first.code, { file: display, field: first.path, message: first.message, plugin: first.plugin });
}
