import { join } from 'pathe';
import type { LifecycleContext } from '../lifecycle-context.ts';
import { hooklessGitConfig } from '../workspace/hookless-git.ts';
import { runGit } from '../workspace/run-git.ts';

export interface FileStat {
  /** Lines added and removed; null for a binary file. */
  added: number | null;
  removed: number | null;
}

/**
 * Lines added and removed per file against HEAD (`git diff --numstat`); untracked files count their
 * lines as added. For the commit preview, so a person sees how big each change is.
 */
export async function diffStat(lc: LifecycleContext, files: readonly { path: string; untracked: boolean }[]): Promise<Map<string, FileStat>> {
  const out = new Map<string, FileStat>();
  const tracked = files.filter((f) => !f.untracked).map((f) => f.path);
  if (tracked.length > 0) {
    const r = await runGit(
      lc.host,
      lc.root,
      ['diff', '--numstat', '-z', '--no-renames', '--no-ext-diff', '--no-textconv', '--relative', 'HEAD', '--', ...tracked],
      {
        // Diffing the work tree cleans each file: no filter the repository configures runs (hookless-git.ts).
        config: await hooklessGitConfig(lc.host, lc.root),
      },
    );
    for (const rec of r.code === 0 ? r.stdout.split('\0') : []) {
      const m = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(rec);
      if (m) out.set(m[3], { added: m[1] === '-' ? null : Number(m[1]), removed: m[2] === '-' ? null : Number(m[2]) });
    }
  }
  for (const f of files.filter((x) => x.untracked)) {
    const bytes = await lc.host.readBytes(join(lc.root, f.path), { maxBytes: 16 * 1024 * 1024 }).catch(() => null);
    if (!bytes) continue;
    const binary = bytes.subarray(0, 8000).includes(0);
    let lines = 0;
    for (const b of bytes) if (b === 10) lines++;
    if (bytes.length > 0 && bytes[bytes.length - 1] !== 10) lines++;
    out.set(f.path, binary ? { added: null, removed: null } : { added: lines, removed: 0 });
  }
  return out;
}
