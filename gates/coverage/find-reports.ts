import type { Host } from '../../core/index.ts';
import { projectFile } from '../shared/project-file.ts';

/** Folders never searched for reports: dependencies and VCS data hold other projects' coverage. */
const SKIPPED = new Set(['node_modules', '.git', '.sdlc', '.sluice', 'vendor', 'bin', 'obj']);
const MAX_DEPTH = 8;
const MAX_ENTRIES = 20_000;

/** Glob syntax picomatch understands; a plain path never loads it (every gate run would pay for it). */
const isGlob = (pattern: string) => /[*?[\]{}()!]/.test(pattern);

/**
 * Project-relative files a report pattern names: a plain path as is (when it is a file), a glob
 * (`**\/TestResults/*\/coverage.cobertura.xml`, where coverlet writes one folder per run) by walking
 * the project, newest first, so the latest run's report wins.
 */
export async function findReports(host: Host, projectRoot: string, pattern: string): Promise<string[]> {
  if (!isGlob(pattern)) {
    const { info } = await projectFile(host, projectRoot, pattern, 'coverage report path');
    return info?.kind === 'file' ? [pattern] : [];
  }
  const { default: picomatch } = await import('picomatch');
  const match = picomatch(pattern, { dot: false });
  const { base } = picomatch.scan(pattern);
  const found: { rel: string; mtimeMs: number }[] = [];
  let seen = 0;
  const walk = async (rel: string, depth: number): Promise<void> => {
    let entries;
    try {
      entries = await host.listDir(rel ? `${projectRoot}/${rel}` : projectRoot);
    } catch {
      return;
    }
    for (const e of entries) {
      if (++seen > MAX_ENTRIES) return;
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.kind === 'dir' && depth < MAX_DEPTH && !SKIPPED.has(e.name) && !e.name.startsWith('.')) await walk(child, depth + 1);
      else if (e.kind === 'file' && match(child)) {
        const { info } = await projectFile(host, projectRoot, child, 'coverage report path');
        if (info?.kind === 'file') found.push({ rel: child, mtimeMs: info.mtimeMs });
      }
    }
  };
  await walk(base && base !== '.' ? base : '', 0);
  return found.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.rel < b.rel ? -1 : 1)).map((f) => f.rel);
}
