import { join } from 'pathe';
import * as v from 'valibot';
import { jsonCodec, parseDataText, readDataText, realPathInside, SluiceError, type Host } from '../../../core/index.ts';

/** Artifacts are written by agents; a reasonable one is far below this. */
const MAX_ARTIFACT_BYTES = 4 * 1024 * 1024;

/**
 * Which format an artifact was recognised as: sluice's own forms, or the EARLIEST PrizmKit version that
 * writes this form (v2 and v3 write the same review report and test result, so both read as v2).
 */
export const ARTIFACT_FORMATS = ['sluice', 'prizmkit-v1', 'prizmkit-v2', 'prizmkit-v3', 'prizmkit-v4'] as const;
export type ArtifactFormat = (typeof ARTIFACT_FORMATS)[number];

/** One file a verdict was read from: what evidence records store so a later change to it shows. */
export interface ArtifactRef {
  /** Relative to the project root. */
  file: string;
  /** SHA-256 (hex) of the file's UTF-8 content as read. */
  sha256: string;
  format: ArtifactFormat;
}

/** The text of an artifact and the hash of what was read, for its ArtifactRef. */
export async function readArtifact(host: Host, root: string, file: string): Promise<{ text: string; sha256: string }> {
  const text = await readArtifactText(host, root, file);
  return { text, sha256: host.sha256(text) };
}

const SYSTEM_CODES = new Set<string>(['FILE_NOT_REGULAR', 'FILE_ACCESS_DENIED', 'FILE_SYSTEM_READ_ONLY', 'DISK_FULL', 'FILE_IO_FAILED']);

export function artifactInvalid(file: string, field: string | undefined, message: string): SluiceError {
  return new SluiceError('ARTIFACT_INVALID', { file, field, message });
}

/**
 * The text of an artifact (path relative to the project), or ARTIFACT_MISSING naming it. The path
 * must lead inside the project, symlinks included: an artifact folder linked elsewhere is not read.
 */
export async function readArtifactText(host: Host, root: string, file: string): Promise<string> {
  try {
    return await readDataText(host, await realPathInside(host, root, file, 'artifact'), { display: file, maxBytes: MAX_ARTIFACT_BYTES });
  } catch (error) {
    if (error instanceof SluiceError && error.code === 'FILE_NOT_FOUND')
      throw new SluiceError('ARTIFACT_MISSING', { file, message: 'the stage has not written this file' });
    // What the system refused (a FIFO, permissions) is not the artifact's content being wrong: keep its code.
    if (error instanceof SluiceError && !SYSTEM_CODES.has(error.code)) throw artifactInvalid(file, error.field, error.detail);
    throw error;
  }
}

export async function artifactExists(host: Host, root: string, file: string): Promise<boolean> {
  return (await host.stat(join(root, file)))?.kind === 'file';
}

/** A JSON artifact validated by its schema; syntax and schema problems are ARTIFACT_INVALID naming the field. */
export async function readArtifactJson<S extends v.GenericSchema>(host: Host, root: string, file: string, schema: S): Promise<v.InferOutput<S>> {
  return validateArtifact(schema, parseArtifactJson(await readArtifactText(host, root, file), file), file);
}

/** JSON text of an artifact; syntax errors are ARTIFACT_INVALID naming the line. */
export function parseArtifactJson(text: string, file: string): unknown {
  try {
    return parseDataText(text, jsonCodec, file);
  } catch (error) {
    const e = error as SluiceError;
    throw artifactInvalid(file, e.field, e.detail ?? String(error));
  }
}

/** Validates an extracted value; the first issue names its field. */
export function validateArtifact<S extends v.GenericSchema>(schema: S, value: unknown, file: string): v.InferOutput<S> {
  const result = v.safeParse(schema, value);
  if (result.success) return result.output;
  const issue = result.issues[0];
  throw artifactInvalid(file, v.getDotPath(issue) ?? undefined, issue.message);
}

/** Files an artifact cites (`evidence`, `docs_updated`) must stay inside `base` and exist. */
export async function checkCitedFiles(host: Host, base: string, baseName: string, list: readonly string[], file: string, field: string): Promise<void> {
  for (const [i, item] of list.entries()) {
    let path: string;
    try {
      path = await realPathInside(host, base, item, field);
    } catch (error) {
      if (!(error instanceof SluiceError) || error.code !== 'PATH_OUTSIDE_PROJECT') throw error;
      throw artifactInvalid(
        file,
        `${field}.${i}`,
        `${JSON.stringify(item)} is outside ${baseName}${/symlink/.test(error.detail) ? ' (through a symlink)' : ''}`,
      );
    }
    if ((await host.stat(path))?.kind !== 'file') throw artifactInvalid(file, `${field}.${i}`, `${JSON.stringify(item)} does not exist`);
  }
}
