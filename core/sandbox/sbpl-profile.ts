import type { SandboxRule } from './sandbox-policy.ts';

/** A string literal in SBPL (Scheme syntax): backslashes and quotes escaped. */
const quote = (text: string) => `"${text.replace(/[\\"]/g, '\\$&')}"`;
/** The folder itself and everything under it, or the file. */
const filter = (path: string) => `(subpath ${quote(path)})`;

/**
 * The sandbox-exec profile for a run on macOS: everything allowed as the OS allows it (network
 * included), then each rule in order; in SBPL the last matching rule decides, so a later rule wins
 * under its path as with bubblewrap. Paths are matched as the kernel sees them (real paths: the host
 * resolves `/tmp` to `/private/tmp` before), and a missing path is denied as well as an existing one.
 */
export function sbplProfile(rules: readonly SandboxRule[]): string {
  const lines = ['(version 1)', '(allow default)'];
  for (const r of rules) {
    if (r.access === 'write') lines.push(`(allow file-write* ${filter(r.path)})`);
    else if (r.access === 'read') lines.push(`(deny file-write* ${filter(r.path)})`);
    else lines.push(`(deny file-read* file-write* ${filter(r.path)})`);
  }
  return `${lines.join('\n')}\n`;
}
