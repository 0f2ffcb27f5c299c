import { SluiceError, type Kernel } from '../../../core/index.ts';
import type { PhaseModel } from '../registry/phase-model.ts';
import { phaseKey } from '../state/phase-id.ts';
import type { ComplianceFile } from './compliance-schema.ts';
import type { Profile } from './profile-schema.ts';

/** Frameworks a profile enforces (`none` means none). */
export function profileFrameworks(profile: Profile): string[] {
  return [...new Set((profile.compliance?.frameworks ?? []).filter((f) => f !== 'none'))];
}

/**
 * What the profile schema cannot check alone: phases named in evaluation criteria and extra gates
 * exist in the registry, and every extra gate's type is registered (unknown type: GATE_TYPE_UNKNOWN).
 */
export function checkProfile(profile: Profile, model: PhaseModel, kernel: Kernel, display: string): void {
  const unknownPhase = (field: string, id: string | number) => new SluiceError('PROFILE_INVALID', { file: display, field, message: `unknown phase ${JSON.stringify(phaseKey(id))}; phases are ${model.ids().join(', ')}` });
  profile.quality.evaluation_criteria?.forEach((c, i) =>
    c.phases?.forEach((p, j) => {
      if (!model.get(p)) throw unknownPhase(`quality.evaluation_criteria.${i}.phases.${j}`, p);
    }),
  );
  const ids = new Set<string>();
  profile.sluice?.gates?.forEach((g, i) => {
    if (!kernel.gates.has(g.type)) {
      throw new SluiceError('GATE_TYPE_UNKNOWN', { file: display, field: `sluice.gates.${i}.type`, message: `unknown gate type ${JSON.stringify(g.type)}; registered types are ${kernel.gates.names().join(', ')}` });
    }
    if (g.type === 'command' && !g.argv) throw new SluiceError('PROFILE_INVALID', { file: display, field: `sluice.gates.${i}.argv`, message: 'a command gate needs argv: [program, ...args]' });
    if (ids.has(g.id)) throw new SluiceError('PROFILE_INVALID', { file: display, field: `sluice.gates.${i}.id`, message: `gate id ${g.id} is used twice` });
    ids.add(g.id);
    g.phases.forEach((p, j) => {
      if (!model.get(p)) throw unknownPhase(`sluice.gates.${i}.phases.${j}`, p);
    });
  });
}

/** Every check of a compliance file names a registry phase, and ids are unique. */
export function checkCompliance(file: ComplianceFile, model: PhaseModel, display: string): void {
  const ids = new Set<string>();
  file.gates.forEach((g, i) => {
    if (!model.get(g.phase)) throw new SluiceError('COMPLIANCE_INVALID', { file: display, field: `gates.${i}.phase`, message: `unknown phase ${JSON.stringify(phaseKey(g.phase))}; phases are ${model.ids().join(', ')}` });
    if (ids.has(g.id)) throw new SluiceError('COMPLIANCE_INVALID', { file: display, field: `gates.${i}.id`, message: `check id ${g.id} is used twice` });
    ids.add(g.id);
  });
}
