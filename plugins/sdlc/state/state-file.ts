import type { StateFile } from '../../../core/index.ts';
import { safeYamlCodec } from './safe-yaml-codec.ts';
import { sdlcStateInvariant } from './state-invariant.ts';
import { SdlcStateSchema } from './state-schema.ts';

export type SdlcStateFile = StateFile<typeof SdlcStateSchema>;

/** `.sdlc/state.yaml` as the kernel store sees it: schema, the `__proto__`-refusing codec, the append-only invariant. */
export function sdlcStateFile(path: string): SdlcStateFile {
  return { path, schema: SdlcStateSchema, codec: safeYamlCodec, invariant: sdlcStateInvariant };
}
