import { parseDataText, validateData } from '../../../core/index.ts';
import type { PhaseModel } from '../registry/phase-model.ts';
import { phaseKey } from '../state/phase-id.ts';
import { safeYamlCodec } from '../state/safe-yaml-codec.ts';
import { SdlcStateSchema, type PhaseRecord, type ProjectType, type SdlcState } from '../state/state-schema.ts';

export interface InitialStateInput {
  profileId: string;
  projectName: string;
  createdAt: string;
  projectType?: ProjectType;
  model: PhaseModel;
}

/** A value placed inside the template's double quotes: JSON string escapes are valid YAML double-quoted escapes. */
const quoted = (s: string) => JSON.stringify(s).slice(1, -1);

/**
 * The state of a new project: the reference template with its three placeholders substituted, then
 * its `phases` aligned with the registry (a pack's own registry may add or drop phases): the first
 * phase by order active since creation, every other pending.
 */
export function initialState(templateText: string, i: InitialStateInput, templateDisplay: string): SdlcState {
  const text = templateText
    .replaceAll('${PROFILE_ID}', quoted(i.profileId))
    .replaceAll('${PROJECT_NAME}', quoted(i.projectName))
    .replaceAll('${CREATED_AT}', quoted(i.createdAt));
  const template = validateData(SdlcStateSchema, parseDataText(text, safeYamlCodec, templateDisplay), templateDisplay);
  const first = i.model.first();
  const phases: Record<string, PhaseRecord> = {};
  for (const phase of i.model.phases) {
    const key = phaseKey(phase.id);
    const isFirst = phase === first;
    phases[key] = {
      gate_results: {},
      artifacts: [],
      artifact_checksums: {},
      ...template.phases[key],
      name: phase.name,
      status: isFirst ? 'active' : 'pending',
      entered_at: isFirst ? i.createdAt : null,
      completed_at: null,
    };
  }
  return { ...template, project_type: i.projectType ?? null, current_phase: phaseKey(first.id), phase_name: first.name, phases, history: [] };
}
