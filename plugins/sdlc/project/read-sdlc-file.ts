import type * as v from 'valibot';
import { parseDataText, readDataText, validateData, type ErrorCode, type Host } from '../../../core/index.ts';
import { safeYamlCodec } from '../state/safe-yaml-codec.ts';
import { AllHistory, readStateFolding } from '../state/folded-state-read.ts';
import { parseCacheDir, parseWithCache } from './disk-cache.ts';

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
  const file = { path, ...(await readYamlParseCached(host, path, schema, code, display)) };
  if (info) cache.set(path, { schema, mtimeMs: info.mtimeMs, size: info.size, file });
  return file;
}

/**
 * Reads one SDLC YAML file (the same size cap, UTF-8 check, codec and schema as the store) with its
 * parse kept on disk beside the bytes it came from: the state is ~8 KB of YAML read by every `gate` and `next`, and a
 * cold YAML parse is most of a short command's work. The value is validated on every read all the same.
 */
export async function readYamlParseCached<S extends v.GenericSchema>(
  host: Host,
  path: string,
  schema: S,
  code: ErrorCode,
  display: string,
  maxBytes?: number,
): Promise<{ text: string; value: v.InferOutput<S> }> {
  const text = await readDataText(host, path, { display, ...(maxBytes ? { maxBytes, limitKey: 'stateMaxBytes' } : {}) });
  const { value } = await parseWithCache(host, parseCacheDir(host), code, path, text, (t) => parseDataText(t, safeYamlCodec, display));
  return { text, value: validateData(schema, value, display, code) };
}

/**
 * state.yaml as readYamlParseCached reads it, except that a long history is validated entry by entry
 * as it is read (folded-state-read.ts), so its parse and its validated copy are never both held;
 * anything the fast read does not take is read the usual way, which reports its errors.
 */
export async function readStateYaml<S extends v.GenericSchema>(
  host: Host,
  path: string,
  schema: S,
  display: string,
  maxBytes?: number,
): Promise<{ text: string; value: v.InferOutput<S> }> {
  const text = await readDataText(host, path, { display, ...(maxBytes ? { maxBytes, limitKey: 'stateMaxBytes' } : {}) });
  const all = new AllHistory();
  const folded = readStateFolding(text, schema, all) as Record<string, unknown> | undefined;
  if (folded) return { text, value: { ...folded, history: all.entries } as v.InferOutput<S> };
  const { value } = await parseWithCache(host, parseCacheDir(host), 'STATE_INVALID', path, text, (t) => parseDataText(t, safeYamlCodec, display));
  return { text, value: validateData(schema, value, display, 'STATE_INVALID') };
}
