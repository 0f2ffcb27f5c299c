import { dirname, relative, resolve } from 'pathe';
import { isInside, type CommandIO, type GateResult, type Host } from '../../../core/index.ts';
import { gateAnnotations } from './github-annotations.ts';
import { jobSummary } from './job-summary.ts';

export interface CiReportInput {
  host: Host;
  io: CommandIO;
  cwd: string;
  command: 'gate' | 'next';
  /** The project's name from `.sdlc/state.yaml`. */
  project: string;
  phase: string;
  phaseTitle: string;
  verdict: string;
  results: readonly GateResult[];
  /** `--junit FILE`, relative to the working directory. */
  junit?: string;
}

/**
 * What a CI system gets from a gate run: under GitHub Actions a job summary and annotations for
 * failing MUST (error) and SHOULD (warning) rows; anywhere, JUnit XML when asked. The runner reads
 * workflow commands from the step's output: stdout normally, stderr under --json (stdout is the document).
 */
export async function reportToCi(o: CiReportInput): Promise<void> {
  if (o.junit) {
    const file = resolve(o.cwd, o.junit);
    await o.host.mkdir(dirname(file));
    // The XML builder loads only for --junit: a plain gate run does not pay for it.
    const { gateJunitXml } = await import('./junit-xml.ts');
    await o.host.writeAtomic(file, gateJunitXml({ project: o.project, phase: o.phase, results: o.results, time: o.host.now().toISOString() }));
  }
  if (o.host.env('GITHUB_ACTIONS') !== 'true') return;
  // Annotations name files from the repository root; the project may be a subfolder of it.
  const workspace = o.host.env('GITHUB_WORKSPACE');
  const sub = workspace ? relative(workspace, o.cwd) : '';
  const prefix = sub && !sub.startsWith('..') ? `${sub}/` : '';
  for (const line of gateAnnotations(await withArtifactFiles(o.host, o.cwd, o.results), o.phase, prefix)) (o.io.json ? o.io.warn : o.io.print).call(o.io, line);
  const summaryPath = o.host.env('GITHUB_STEP_SUMMARY');
  if (!summaryPath) return;
  const writer = await o.host.openWriter(summaryPath, { append: true });
  writer.write(`${jobSummary({ command: o.command, project: o.project, phaseTitle: o.phaseTitle, verdict: o.verdict, results: o.results })}\n`);
  await writer.close();
}

/**
 * Rows that name no `file` but whose `artifact` is a file of the project (a plugin gate's
 * `artifact: 'LICENSES.md'`) point at that file, so their annotation shows on it. An artifact that
 * is only a name (`design-doc.md` of a phase folder) stays without one.
 */
async function withArtifactFiles(host: Host, root: string, results: readonly GateResult[]): Promise<GateResult[]> {
  return Promise.all(
    results.map(async (r) => {
      if ((typeof r.file === 'string' && r.file !== '') || typeof r.artifact !== 'string' || r.artifact === '' || r.passed !== false) return r;
      const full = resolve(root, r.artifact);
      if (!isInside(root, full) || full === root) return r;
      const info = await host.stat(full).catch(() => null);
      return info?.kind === 'file' ? { ...r, file: relative(root, full) } : r;
    }),
  );
}
