import { join } from 'pathe';
import { HostTooLargeError, isSluiceError, realPathInside, type Host } from '../../../core/index.ts';
import type { ArtifactView } from '../model/phase-views.ts';

/** Artifacts are documents; anything larger is named, not embedded. */
export const MAX_ARTIFACT_BYTES = 256 * 1024;
/** A folder artifact (`adrs/`) shows at most this many of its files. */
export const MAX_FOLDER_FILES = 25;

export type ArtifactBody = { kind: 'markdown'; text: string } | { kind: 'text'; text: string } | { kind: 'note'; note: string };

export interface ArtifactDocument {
  /** Relative to the project root. */
  rel: string;
  body: ArtifactBody;
}

/** Reads one file for the report: markdown and plain text are shown, HTML and binaries are only named. */
export async function readArtifactDocument(host: Host, root: string, rel: string): Promise<ArtifactDocument> {
  let path: string;
  try {
    path = await realPathInside(host, root, rel, 'artifact');
  } catch (error) {
    if (isSluiceError(error, 'PATH_OUTSIDE_PROJECT')) return { rel, body: { kind: 'note', note: 'not shown: the path leads outside the project' } };
    throw error;
  }
  if (/\.html?$/i.test(rel)) return { rel, body: { kind: 'note', note: 'HTML file: not embedded (open it on its own)' } };
  let text: string;
  try {
    text = await host.readText(path, { maxBytes: MAX_ARTIFACT_BYTES });
  } catch (error) {
    if (error instanceof HostTooLargeError)
      return { rel, body: { kind: 'note', note: `not shown: ${error.size} bytes, over the ${MAX_ARTIFACT_BYTES} byte limit` } };
    return { rel, body: { kind: 'note', note: `cannot be read: ${(error as Error).message}` } };
  }
  if (text.includes('\0')) return { rel, body: { kind: 'note', note: 'binary file: not shown' } };
  return { rel, body: /\.(md|markdown)$/i.test(rel) ? { kind: 'markdown', text } : { kind: 'text', text } };
}

/** The documents behind one artifact entry: the file, or the files of a folder (sorted, capped). */
export async function readArtifactDocuments(host: Host, root: string, artifact: ArtifactView): Promise<ArtifactDocument[]> {
  if (!artifact.exists) return [];
  if (!artifact.dir) return [await readArtifactDocument(host, root, artifact.rel)];
  const base = artifact.rel.replace(/\/+$/, '');
  const names = (await host.listDir(join(root, base)).catch(() => []))
    .filter((e) => e.kind === 'file' && !e.name.startsWith('.'))
    .map((e) => e.name)
    .sort();
  const docs = await Promise.all(names.slice(0, MAX_FOLDER_FILES).map((name) => readArtifactDocument(host, root, `${base}/${name}`)));
  if (names.length > MAX_FOLDER_FILES) docs.push({ rel: base, body: { kind: 'note', note: `${names.length - MAX_FOLDER_FILES} more files not shown` } });
  return docs;
}
