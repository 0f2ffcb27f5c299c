import * as v from 'valibot';
import type { ErrorCode } from '../errors/catalog.ts';
import { SluiceError } from '../errors/sluice-error.ts';
import { systemErrorAsCatalogued } from '../errors/system-error.ts';
import { HostTooLargeError, type Host } from '../host/host.ts';
import { CodecError, codecForPath, type Codec } from './codec.ts';
import { issueMessage } from '../text/quote-value.ts';

const isAbsolute = (path: string) => path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path);

/** State and configuration files are small; anything bigger is refused before parsing. */
export const MAX_DATA_FILE_BYTES = 16 * 1024 * 1024;

export interface DataFileOptions {
  codec?: Codec;
  /** Name shown in errors; defaults to the path. */
  display?: string;
  maxBytes?: number;
  /** The config key that sets `maxBytes` (e.g. stateMaxBytes), named by the error at the cap. */
  limitKey?: string;
}

/** Reads raw text with the catalogued errors for missing and oversized files. */
export async function readDataText(host: Host, path: string, o: DataFileOptions = {}): Promise<string> {
  const display = o.display ?? path;
  let bytes: Uint8Array;
  try {
    bytes = await host.readBytes(path, { maxBytes: o.maxBytes ?? MAX_DATA_FILE_BYTES });
  } catch (error) {
    if (error instanceof HostTooLargeError)
      throw new SluiceError('FILE_TOO_LARGE', {
        file: display,
        ...(o.limitKey
          ? { field: o.limitKey, hint: `the limit is the config key ${o.limitKey} (sluice.config.yaml): raise it if the file is what it should be` }
          : {}),
        message: `file is ${error.size} bytes, over the ${o.maxBytes ?? MAX_DATA_FILE_BYTES} byte limit${o.limitKey ? ` (config ${o.limitKey})` : ''}`,
      });
    const system = systemErrorAsCatalogued(error);
    if (system) throw new SluiceError(system.code, { file: display, message: system.message, cause: error });
    throw error;
  }
  try {
    return utf8.decode(bytes);
  } catch {
    throw new SluiceError('STATE_CORRUPT', { file: display, message: 'file is not valid UTF-8' });
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Parses text with a codec, mapping syntax errors to STATE_CORRUPT naming the file and line. */
export function parseDataText(text: string, codec: Codec, display: string): unknown {
  try {
    return codec.parse(text);
  } catch (error) {
    if (error instanceof CodecError)
      throw new SluiceError('STATE_CORRUPT', {
        file: display,
        field: error.line === undefined ? undefined : `line ${error.line}`,
        message: error.message,
        cause: error,
      });
    throw new SluiceError('STATE_CORRUPT', { file: display, message: String(error), cause: error });
  }
}

/**
 * Validates a value against its schema; the first issue becomes a one-line error naming the field,
 * under `code` (a file format may have its own, e.g. PROFILE_INVALID).
 */
export function validateData<S extends v.GenericSchema>(schema: S, value: unknown, display: string, code: ErrorCode = 'STATE_INVALID'): v.InferOutput<S> {
  const result = v.safeParse(schema, value);
  if (result.success) return result.output;
  const issue = result.issues[0];
  const field = v.getDotPath(issue) ?? '';
  // Values are quoted only from files shown project-relative (inside the project), and only short ones.
  const quote = !isAbsolute(display);
  const message = issueMessage(issue, quote);
  throw new SluiceError(code, {
    file: display,
    field: field || undefined,
    message: code === 'INVARIANT_VIOLATED' ? `update would write an invalid value: ${message}` : message,
    data: { issues: result.issues.slice(0, 20).map((i) => ({ field: v.getDotPath(i) ?? '', message: issueMessage(i, quote) })) },
  });
}

/** Read, parse and validate one data file: the single path by which sluice trusts a file's content. */
export async function readDataFile<S extends v.GenericSchema>(host: Host, path: string, schema: S, o: DataFileOptions = {}): Promise<v.InferOutput<S>> {
  const display = o.display ?? path;
  const text = await readDataText(host, path, o);
  return validateData(schema, parseDataText(text, o.codec ?? codecForPath(path), display), display);
}
