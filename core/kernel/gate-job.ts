import * as v from 'valibot';
import { SluiceError, toSluiceError } from '../errors/sluice-error.ts';
import type { Host } from '../host/host.ts';
import type { GateDefinition, GateResult } from '../plugin/gate-types.ts';
import type { JobContext } from '../queue/job-queue.ts';
import { commandSubjects } from '../trust/config-subjects.ts';
import type { WorkspaceTrust } from '../trust/workspace-trust.ts';
import type { Registry } from './kernel-types.ts';

export interface GateJobContext {
  gates: Registry<GateDefinition>;
  host: Host;
  projectRoot: string;
  trust: WorkspaceTrust;
}

const firstIssue = (issues: readonly v.BaseIssue<unknown>[]) => ({ field: v.getDotPath(issues[0]) ?? '', message: issues[0].message });

/**
 * The `gate:check` job: the gate's input is checked against its schema before anything runs (a bad one
 * names the plugin, the gate and the field), a project command it would run needs the workspace's trust,
 * and the data its rows carry must match what the gate declares.
 */
export function createGateJob(c: GateJobContext) {
  return async ({ type, input }: { type: string; input: unknown }, job: JobContext): Promise<GateResult[]> => {
    const gate = c.gates.require(type);
    const plugin = c.gates.entries().find((e) => e.value === gate)?.plugin;
    // A plain-JS gate may declare no schema: its input then reaches it unchecked.
    const parsed = gate.input ? v.safeParse(gate.input, input) : { success: true as const, output: input };
    if (!parsed.success) {
      const issue = firstIssue(parsed.issues);
      throw new SluiceError('GATE_INPUT_INVALID', {
        plugin,
        field: issue.field,
        message: `gate ${type} (${gate.id}) does not accept this input: ${issue.message}`,
        data: { gate: type },
      });
    }
    const checked = parsed.output;
    const command = gate.runs?.(checked);
    if (command)
      await c.trust.require(
        await commandSubjects({ host: c.host, projectRoot: c.projectRoot, pathEnv: c.host.env('PATH') }, command.file, command.what, command.argv),
      );
    let rows: GateResult[];
    try {
      rows = await gate.check(checked, { host: c.host, projectRoot: c.projectRoot, signal: job.signal });
    } catch (error) {
      throw toSluiceError(error, 'INTERNAL', { plugin });
    }
    if (gate.data && Array.isArray(rows))
      rows.forEach((row, i) => {
        if (row?.data === undefined) return;
        const data = v.safeParse(gate.data!, row.data);
        if (!data.success) {
          const issue = firstIssue(data.issues);
          throw new SluiceError('INTERNAL', {
            plugin,
            field: `${i}.data.${issue.field}`,
            message: `gate ${type} returned data it does not declare: ${issue.message}`,
          });
        }
      });
    return rows;
  };
}
