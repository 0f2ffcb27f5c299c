import * as v from 'valibot';
import { defineGate, gatePlugin, type GateResult } from '../core/index.ts';
import { ArtifactRefSchema, type ArtifactRef } from './shared/artifact-ref.ts';
import { projectFile } from './shared/project-file.ts';

export const IntegrityInputSchema = v.object({ projectRoot: v.string(), artifacts: v.array(ArtifactRefSchema) });
export type IntegrityInput = v.InferOutput<typeof IntegrityInputSchema>;

export const G1 = 'G1-integrity';

/** Rows for artifacts the project type does not need: shown, never counted. */
export function notRequiredRow(gate: string, a: ArtifactRef): GateResult {
  return { gate, id: `${gate.slice(0, 2)}:${a.name}`, artifact: a.name, passed: true, message: `not checked: ${a.note ?? 'not required'}`, severity: 'INFO' };
}

/** G1: every required artifact exists on disk (a folder artifact as a folder). MUST. */
export const integrityGate = defineGate({
  type: 'integrity',
  id: G1,
  description: 'required artifacts exist on disk',
  input: IntegrityInputSchema,
  async check(input, { host }) {
    return Promise.all(
      input.artifacts.map(async (a): Promise<GateResult> => {
        if (!a.applies) return notRequiredRow(G1, a);
        const { info } = await projectFile(host, input.projectRoot, a.rel);
        const row = (passed: boolean, message: string): GateResult => ({
          gate: G1,
          id: `G1:${a.name}`,
          artifact: a.name,
          file: a.rel,
          passed,
          message,
          severity: 'MUST',
          ...(a.note ? { note: a.note } : {}),
        });
        if (info === null) return row(false, `missing: ${a.rel}`);
        if (a.dir && info.kind !== 'dir') return row(false, `${a.rel} should be a folder`);
        if (!a.dir && info.kind !== 'file') return row(false, `${a.rel} is a ${info.kind}, not a file`);
        return row(true, a.dir ? 'folder exists' : `exists (${info.size} bytes)`);
      }),
    );
  },
});

export const integrityGatePlugin = gatePlugin(integrityGate);
