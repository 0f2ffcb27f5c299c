import { HostNotFoundError, HostTooLargeError, realPathInside, type FileInfo, type Host, compareText } from '../../core/index.ts';

/** Largest artifact a gate reads; a bigger "markdown" file is not what it claims to be. */
export const MAX_ARTIFACT_BYTES = 8 * 1024 * 1024;

export interface ProjectFile {
  full: string;
  info: FileInfo | null;
}

/** Resolves a project-relative path for a gate, refusing escapes (also through symlinks), and stats it. */
export async function projectFile(host: Host, projectRoot: string, rel: string, what = 'artifact path'): Promise<ProjectFile> {
  const full = await realPathInside(host, projectRoot, rel, what);
  return { full, info: await host.stat(full) };
}

/** The text of a file, or why it cannot be read (a gate reports that as a failure, not a crash). */
export async function readTextFile(host: Host, full: string, maxBytes = MAX_ARTIFACT_BYTES): Promise<{ text: string } | { error: string }> {
  try {
    return { text: await host.readText(full, { maxBytes }) };
  } catch (error) {
    if (error instanceof HostNotFoundError) return { error: 'does not exist' };
    if (error instanceof HostTooLargeError) return { error: `is ${error.size} bytes, over the ${maxBytes} byte limit` };
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

const TEXT_EXTENSIONS = /\.(md|markdown|txt|ya?ml|json|html?|adoc|rst|csv)$/i;
export const isTextArtifact = (name: string) => TEXT_EXTENSIONS.test(name);

/** Files under a folder artifact (`adrs/`), depth-first, bounded so a huge tree cannot stall a gate. */
export async function listFilesUnder(host: Host, dir: string, limit = 500, depth = 4): Promise<string[]> {
  const out: string[] = [];
  const walk = async (at: string, level: number): Promise<void> => {
    const entries = (await host.listDir(at)).sort((a, b) => compareText(a.name, b.name));
    for (const e of entries) {
      if (out.length >= limit || e.name.startsWith('.')) continue;
      const child = `${at}/${e.name}`;
      if (e.kind === 'file') out.push(child);
      else if (e.kind === 'dir' && level < depth) await walk(child, level + 1);
    }
  };
  await walk(dir, 0);
  return out;
}
