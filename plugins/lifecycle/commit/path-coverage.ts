/**
 * A commit request lists files or folders; a folder stands for every changed file under it. This
 * compares requested paths with the files git reports, in both directions.
 */
export function covers(requested: string, file: string): boolean {
  const dir = requested.replace(/\/+$/, '');
  return file === dir || file.startsWith(`${dir}/`);
}

export interface Coverage {
  /** Files not covered by any requested path. */
  extra: string[];
  /** Requested paths that cover no file. */
  unmatched: string[];
}

export function comparePaths(requested: readonly string[], files: readonly string[]): Coverage {
  return {
    extra: files.filter((f) => !requested.some((r) => covers(r, f))),
    unmatched: requested.filter((r) => !files.some((f) => covers(r, f))),
  };
}

export const exactlyCovers = (requested: readonly string[], files: readonly string[]): boolean => {
  const c = comparePaths(requested, files);
  return c.extra.length === 0 && c.unmatched.length === 0;
};
