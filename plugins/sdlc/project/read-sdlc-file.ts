import type * as v from 'valibot';
import { parseDataText, readDataText, validateData, type ErrorCode, type Host } from '../../../core/index.ts';
import { safeYamlCodec } from '../state/safe-yaml-codec.ts';
import { parseCacheDir, parseWithCache } from './parsed-file-cache.ts';

/**
 * Frozen files (registry, profile, compliance) are read by every command and rarely change; a
 * process that runs many commands (the demo, tests) parses each once per version (path, mtime, size).
 */
const cache = new Map<string, { schema: unknown; mtimeMs: number; size: number; file: SdlcFile<unknown> }>();

export interface SdlcFile<T> {
  path: string;
  /** The bytes as read, for freezing a copy unchanged (comments and all). */
  text: string;
  value: T;
}

/**
 * Reads one SDLC data file (registry, profile, compliance) through the kernel's trusted path:
 * size cap, UTF-8, the `__proto__`-refusing YAML codec, schema. A schema violation is reported under
 * the file's own error code (PROFILE_INVALID, REGISTRY_INVALID, COMPLIANCE_INVALID).
 */
export async function readSdlcFile<S extends v.GenericSchema>(
  host: Host,
  path: string,
  schema: S,
  code: ErrorCode,
  display: string,
): Promise<SdlcFile<v.InferOutput<S>>> {
  const info = await host.stat(path);
  const cached = cache.get(path);
  if (info && cached && cached.schema === schema && cached.mtimeMs === info.mtimeMs && cached.size === info.size)
    return cached.file as SdlcFile<v.InferOutput<S>>;
  const text = await readDataText(host, path, { display });
  // The registry alone is ~19 KB of YAML parsed on every `gate`/`next`: its parse is kept on disk by
  // content hash (the status dashboard's cache), and the value is validated on every read all the same.
  const { value } = await parseWithCache(
    parseCacheDir((name) => host.env(name)),
    code,
    text,
    (t) => parseDataText(t, safeYamlCodec, display),
  );
  const file = { path, text, value: validateData(schema, value, display, code) };
  if (info) cache.set(path, { schema, mtimeMs: info.mtimeMs, size: info.size, file });
  return file;
}
