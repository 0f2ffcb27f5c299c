import * as v from 'valibot';
import { isSluiceError, SluiceError, type GateResult, type Kernel } from '../../../core/index.ts';
import { resultId } from '../../../core/index.ts';
import type { SdlcProject } from '../project/open-project.ts';
import type { PhaseDefinition } from '../registry/registry-schema.ts';
import { GateResultSchema } from '../state/gate-result-schema.ts';
import type { GateSummary } from '../state/history-schema.ts';
import { phaseKey } from '../state/phase-id.ts';
import { blockingResults, manualResults, summarizeResults, warningResults } from './gate-verdict.ts';
import { enforceWaiverAcceptance } from '../waivers/waiver-acceptance.ts';
import { planPhaseGates, type PlannedGate } from './plan-phase-gates.ts';

export interface PhaseGateRun {
  phase: string;
  results: GateResult[];
  summary: GateSummary;
  blockers: GateResult[];
  warnings: GateResult[];
  manual: GateResult[];
}

/** A plugin gate's row must be storable in state.yaml; a malformed one is the plugin's bug, named as such. */
function checkRows(kernel: Kernel, type: string, rows: unknown): GateResult[] {
  const plugin = kernel.gates.entries().find((e) => e.value.type === type)?.plugin;
  if (!Array.isArray(rows)) throw new SluiceError('INTERNAL', { plugin, message: `gate type ${type} returned ${typeof rows}, not a list of results` });
  return rows.map((row, i) => {
    const parsed = v.safeParse(GateResultSchema, row);
    if (!parsed.success)
      throw new SluiceError('INTERNAL', {
        plugin,
        field: `${i}.${v.getDotPath(parsed.issues[0]) ?? ''}`,
        message: `gate type ${type} returned an invalid result: ${parsed.issues[0].message}`,
      });
    return parsed.output as GateResult;
  });
}

/** Runs one planned gate; an input the gate refuses is named where the profile configured it. */
async function runPlanned(kernel: Kernel, job: PlannedGate, signal?: AbortSignal): Promise<unknown> {
  try {
    return await kernel.runGate(job.type, job.input, { signal });
  } catch (error) {
    if (!job.origin || !isSluiceError(error, 'GATE_INPUT_INVALID') || error.file !== undefined) throw error;
    throw new SluiceError('GATE_INPUT_INVALID', {
      file: job.origin.file,
      field: job.origin.field(error.field ?? ''),
      plugin: error.plugin,
      message: error.detail,
      data: error.data,
      cause: error,
    });
  }
}

/**
 * Runs every planned gate of a phase at once through the kernel queue (which bounds concurrency),
 * holds waivers to the profile's acceptance policy (unless `waiversAsFound`: what `waivers accept`
 * shows a person), reports each gate type's rows on `gate:result`, and returns the verdict. Reads
 * only: callers decide what to write.
 */
export async function runPhaseGates(
  kernel: Kernel,
  project: SdlcProject,
  phase: PhaseDefinition,
  signal?: AbortSignal,
  o: { waiversAsFound?: boolean } = {},
): Promise<PhaseGateRun> {
  const key = phaseKey(phase.id);
  const plan = planPhaseGates(kernel, project, phase);
  const outputs = await Promise.all(
    plan.map(async (job) => {
      let rows = checkRows(kernel, job.type, await runPlanned(kernel, job, signal));
      if (job.infoOnly) rows = rows.map((r) => ({ ...r, severity: 'INFO' as const }));
      if (!o.waiversAsFound) rows = await enforceWaiverAcceptance(kernel, project, key, rows);
      await kernel.hooks.call('gate:result', { projectRoot: project.root, phase: key, type: job.type, results: rows });
      return rows;
    }),
  );
  const taken = new Set<string>(outputs.flat().flatMap((r) => (r.id ? [String(r.id)] : [])));
  // Every manual row needs an id to be approved by; plugin gates may not set one.
  const results = outputs.flat().map((r) => (r.passed === null && !r.id ? { ...r, id: resultId(r.gate, r.check ?? r.artifact ?? r.message, taken) } : r));
  return {
    phase: key,
    results,
    summary: summarizeResults(results),
    blockers: blockingResults(results),
    warnings: warningResults(results),
    manual: manualResults(results),
  };
}
