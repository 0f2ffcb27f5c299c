import { resolveInside, SluiceError, type Kernel } from '../../../core/index.ts';
import type {
  CommandGateInput,
  CompletenessInput,
  ComplianceCheck,
  ComplianceInput,
  ConsistencyInput,
  ExitCriteriaInput,
  IntegrityInput,
  MetricsInput,
  QualityInput,
} from '../../../gates/index.ts';
import { entryField, type ProfileGateInput } from './profile-gate-input.ts';
import type { SdlcProject } from '../project/open-project.ts';
import type { PhaseDefinition } from '../registry/registry-schema.ts';
import { proseExitConditions, requiredArtifacts } from '../registry/required-artifacts.ts';
import { phaseKey } from '../state/phase-id.ts';
import { lockedMetrics, profileMetrics } from './locked-metrics.ts';

/** One gate job of a phase's run: a registered gate type and its JSON input. */
export interface PlannedGate {
  type: string;
  input: unknown;
  /** Rows are reports only (the spec backlog): forced to severity INFO so they can never block. */
  infoOnly?: boolean;
  /** Where a profile configured this gate: a field of the input the gate refuses is named in that file. */
  origin?: { file: string; field(inputField: string): string };
}

/** The spec backlog summary the views plugin may register; shown in the Build loop, never blocking. */
export const SPEC_BACKLOG_GATE = 'spec-backlog';

/** Refuses a path from a file that leaves the project, naming the file and field (exit 2). */
function insideProject(root: string, rel: string, file: string, field: string): string {
  try {
    resolveInside(root, rel, 'artifact path');
    return rel;
  } catch (error) {
    throw new SluiceError('PATH_OUTSIDE_PROJECT', { file, field, message: `${JSON.stringify(rel)} leads outside the project`, cause: error });
  }
}

function lookupNumber(source: unknown, dotted: string): number | undefined {
  let at: unknown = source;
  for (const part of dotted.split('.')) at = at && typeof at === 'object' ? (at as Record<string, unknown>)[part] : undefined;
  return typeof at === 'number' ? at : undefined;
}

/**
 * Which gates run for a phase and with what input: G1/G2 on the required artifacts, G3 in the
 * continuous Build loop, G4 from the frozen compliance files, G5 always, G6 for criteria naming the
 * phase, G7 for prose exit conditions, the profile's extra gates, and the spec backlog when a plugin
 * provides it. Every path is checked to stay inside the project before anything runs.
 */
export function planPhaseGates(kernel: Kernel, project: SdlcProject, phase: PhaseDefinition): PlannedGate[] {
  const { root, profile, state, model } = project;
  const key = phaseKey(phase.id);
  const phaseDir = project.paths.artifactDirRel(phase.slug);
  const settings = profile.sluice ?? {};
  const plan: PlannedGate[] = [];

  const artifacts = requiredArtifacts(phase, state.project_type);
  const phaseIndex = model.registry.phases.indexOf(phase);
  for (const a of artifacts) insideProject(root, a.rel, project.registryDisplay, `phases.${phaseIndex}.artifacts.required`);
  if (artifacts.length > 0) {
    plan.push({ type: 'integrity', input: { projectRoot: root, artifacts } satisfies IntegrityInput });
    plan.push({
      type: 'completeness',
      input: { projectRoot: root, artifacts, ...(settings.placeholder_markers ? { markers: settings.placeholder_markers } : {}) } satisfies CompletenessInput,
    });
  }

  settings.coverage_reports?.forEach((rel, i) => insideProject(root, rel, project.profileDisplay, `sluice.coverage_reports.${i}`));
  const reports = settings.coverage_reports ? { reports: settings.coverage_reports } : {};
  if (phase.continuous) {
    const q = profile.quality;
    plan.push({
      type: 'metrics',
      input: {
        projectRoot: root,
        ...reports,
        coverageMinimum: q.coverage_minimum,
        ...(q.coverage_critical === undefined ? {} : { coverageCritical: q.coverage_critical }),
        ...(settings.critical_paths ? { criticalPaths: settings.critical_paths } : {}),
      } satisfies MetricsInput,
    });
  }

  const checks: ComplianceCheck[] = [];
  for (const c of project.compliance) {
    c.value.gates.forEach((g, i) => {
      if (phaseKey(g.phase) !== key) return;
      const artifact = 'artifact' in g ? g.artifact : undefined;
      checks.push({
        ...(g as Omit<ComplianceCheck, 'framework' | 'file'>),
        framework: c.framework,
        file: c.display,
        ...(artifact ? { artifactRel: insideProject(root, `${phaseDir}/${artifact}`, c.display, `gates.${i}.artifact`) } : {}),
        ...(g.check_type === 'metric' ? { threshold: lookupNumber(profile, g.threshold_key) } : {}),
      });
    });
  }
  if (checks.length > 0 || project.missingCompliance.length > 0) {
    plan.push({
      type: 'compliance',
      input: {
        projectRoot: root,
        checks,
        missing: project.missingCompliance.map((m) => ({ framework: m.framework, file: m.display })),
        ...(settings.coverage_reports ? { coverageReports: settings.coverage_reports } : {}),
        ...(settings.placeholder_markers ? { markers: settings.placeholder_markers } : {}),
      } satisfies ComplianceInput,
    });
  }

  const reached = model.phases.filter((p) => p.order <= phase.order).map((p) => project.paths.artifactDirRel(p.slug));
  const prior = model.phases.filter((p) => p.order < phase.order).map((p) => phaseKey(p.id));
  plan.push({
    type: 'consistency',
    input: {
      projectRoot: root,
      locked: lockedMetrics(state),
      profileMetrics: profileMetrics(profile),
      artifactDirs: reached,
      layers: { dir: '.sdlc/context/layers', priorPhases: prior },
    } satisfies ConsistencyInput,
  });

  const criteria = (profile.quality.evaluation_criteria ?? []).filter((c) => (c.phases ?? ['build']).some((p) => phaseKey(p) === key));
  if (criteria.length > 0)
    plan.push({
      type: 'quality',
      input: {
        phase: key,
        criteria: criteria.map((c) => ({ name: c.name, description: c.description, ...(c.severity ? { severity: c.severity } : {}) })),
      } satisfies QualityInput,
    });

  const prose = proseExitConditions(phase);
  if (prose.length > 0) plan.push({ type: 'exit-criteria', input: { conditions: prose } satisfies ExitCriteriaInput });

  for (const [i, g] of (settings.gates ?? []).entries()) {
    if (!g.phases.some((p) => phaseKey(p) === key)) continue;
    const origin = { file: project.profileDisplay, field: (f: string) => entryField(i, f) };
    if (g.type === 'command') {
      plan.push({
        type: 'command',
        origin,
        input: {
          projectRoot: root,
          id: g.id,
          argv: g.argv ?? [],
          ...(g.severity ? { severity: g.severity } : {}),
          ...(g.description ? { description: g.description } : {}),
          ...(g.timeout_seconds ? { timeoutMs: g.timeout_seconds * 1000 } : {}),
        } satisfies CommandGateInput,
      });
    } else {
      plan.push({
        type: g.type,
        origin,
        input: { ...(g.with ?? {}), projectRoot: root, phase: key, id: g.id, ...(g.severity ? { severity: g.severity } : {}) } satisfies ProfileGateInput,
      });
    }
  }

  if (phase.continuous && kernel.gates.has(SPEC_BACKLOG_GATE)) {
    plan.push({ type: SPEC_BACKLOG_GATE, input: { projectRoot: root, phase: key, statePath: project.paths.state }, infoOnly: true });
  }
  return plan;
}
