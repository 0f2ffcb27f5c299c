// The published tarball: what a consumer downloads and unpacks (`npm pack --dry-run`, no build).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const name = 'package';

export async function run(): Promise<Record<string, unknown>> {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const { stdout } = await promisify(execFile)('npm', ['pack', '--dry-run', '--ignore-scripts', '--json'], { cwd: root });
  const [pack] = JSON.parse(stdout) as { size: number; unpackedSize: number; entryCount: number; files: { path: string; size: number }[] }[];
  const byFolder: Record<string, number> = {};
  for (const f of pack.files) {
    const top = f.path.includes('/') ? f.path.slice(0, f.path.indexOf('/')) : '.';
    byFolder[top] = (byFolder[top] ?? 0) + f.size;
  }
  return { packedBytes: pack.size, unpackedBytes: pack.unpackedSize, files: pack.entryCount, targetPackedBytes: 1024 * 1024, unpackedBytesByFolder: byFolder };
}
