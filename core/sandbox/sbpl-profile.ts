import type { SandboxRule } from './sandbox-policy.ts';

/** A string literal in SBPL (Scheme syntax): backslashes and quotes escaped. */
const quote = (text: string) => `"${text.replace(/[\\"]/g, '\\$&')}"`;
/** The folder itself and everything under it, or the file. */
const filter = (path: string) => `(subpath ${quote(path)})`;

/** The folders above the protected paths, without `/`. */
function ancestors(rules: readonly SandboxRule[]): string[] {
  const out = new Set<string>();
  for (const r of rules) {
    if (r.access === 'write') continue;
    const parts = r.path.split('/').filter(Boolean);
    for (let i = 1; i < parts.length; i++) out.add(`/${parts.slice(0, i).join('/')}`);
  }
  return [...out];
}

/**
 * The sandbox-exec profile for a run on macOS: everything allowed as the OS allows it (network
 * included), then each rule in order; in SBPL the last matching rule decides, so a later rule wins
 * under its path as with bubblewrap. Last, the folders above a protected path may not themselves be
 * renamed or removed (`literal`: only the folder, not what is in it), so the project cannot be moved
 * away, edited where no rule names it and moved back. Paths are matched as the kernel sees them (real
 * paths: the host resolves `/tmp` to `/private/tmp` before); a missing path is denied as well.
 */
export function sbplProfile(rules: readonly SandboxRule[]): string {
  const lines = ['(version 1)', '(allow default)'];
  for (const r of rules) {
    if (r.access === 'write') lines.push(`(allow file-write* ${filter(r.path)})`);
    else if (r.access === 'read') lines.push(`(deny file-write* ${filter(r.path)})`);
    else lines.push(`(deny file-read* file-write* ${filter(r.path)})`);
  }
  const above = ancestors(rules);
  if (above.length > 0) lines.push(`(deny file-write* ${above.map((p) => `(literal ${quote(p)})`).join(' ')})`);
  return `${lines.join('\n')}\n`;
}
