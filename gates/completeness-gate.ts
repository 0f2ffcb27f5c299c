import { defineGate, definePlugin, type GateResult, type Host } from '../core/index.ts';
import { DEFAULT_PLACEHOLDER_MARKERS, markdownCodeLines, scanPlaceholders, type PlaceholderScan } from './completeness/placeholder-scan.ts';
import { notRequiredRow } from './integrity-gate.ts';
import type { ArtifactRef } from './shared/artifact-ref.ts';
import { isTextArtifact, listFilesUnder, projectFile, readTextFile } from './shared/project-file.ts';

export interface CompletenessInput {
  projectRoot: string;
  artifacts: ArtifactRef[];
  /** Profile `sluice.placeholder_markers`; the defaults when absent. */
  markers?: string[];
}

export const G2 = 'G2-completeness';

interface FileScan {
  file: string;
  scan?: PlaceholderScan;
  empty?: boolean;
  error?: string;
}

async function scanFile(host: Host, full: string, label: string, markers: readonly string[]): Promise<FileScan> {
  const read = await readTextFile(host, full);
  if ('error' in read) return { file: label, error: read.error };
  if (read.text.trim() === '') return { file: label, empty: true };
  const code = /\.(md|markdown)$/i.test(full) ? await markdownCodeLines(read.text) : undefined;
  return { file: label, scan: scanPlaceholders(read.text, markers, code) };
}

/** One sentence for a row: the first few problems, with file and line. */
function describe(scans: FileScan[]): { passed: boolean; message: string; waivers: unknown[] } {
  const problems: string[] = [];
  const waivers: { file: string; line: number; who: string; why: string; markers: string[] }[] = [];
  for (const s of scans) {
    if (s.error) problems.push(`${s.file} ${s.error}`);
    if (s.empty) problems.push(`${s.file} is empty`);
    for (const h of s.scan?.hits ?? []) problems.push(`${h.text} at ${s.file}:${h.line}`);
    for (const b of s.scan?.badWaivers ?? []) problems.push(`WAIVED line at ${s.file}:${b.line} needs "who — why"`);
    for (const w of s.scan?.waivers ?? []) waivers.push({ file: s.file, line: w.line, who: w.who, why: w.why, markers: w.markers.map((m) => m.text) });
  }
  const waived = waivers.length ? `; ${waivers.length} waiver${waivers.length > 1 ? 's' : ''}: ${waivers.map((w) => `${w.who} — ${w.why} (${w.file}:${w.line})`).join('; ')}` : '';
  if (problems.length === 0) return { passed: true, message: `complete${waived}`, waivers };
  const shown = problems.slice(0, 5).join(', ');
  return { passed: false, message: `incomplete: ${shown}${problems.length > 5 ? ` and ${problems.length - 5} more` : ''}${waived}`, waivers };
}

/** G2: required artifacts have content and no placeholder markers (outside code, unless waived). MUST. */
export const completenessGate = defineGate<CompletenessInput>({
  type: 'completeness',
  id: G2,
  description: 'required artifacts are non-empty and free of placeholder markers',
  async check(input, { host }) {
    const markers = input.markers ?? DEFAULT_PLACEHOLDER_MARKERS;
    return Promise.all(
      input.artifacts.map(async (a): Promise<GateResult> => {
        if (!a.applies) return notRequiredRow(G2, a);
        const row = (passed: boolean, message: string, extra: Record<string, unknown> = {}): GateResult => ({ gate: G2, id: `G2:${a.name}`, artifact: a.name, passed, message, severity: 'MUST', ...extra });
        const { full, info } = await projectFile(host, input.projectRoot, a.rel);
        if (info === null) return row(false, `cannot check completeness: ${a.rel} is missing`);
        if (info.kind === 'dir') {
          const files = await listFilesUnder(host, full);
          if (files.length === 0) return row(false, `${a.rel} is an empty folder`);
          const texts = files.filter(isTextArtifact);
          const scans = await Promise.all(texts.map((f) => scanFile(host, f, `${a.name.replace(/\/$/, '')}/${f.slice(full.length + 1)}`, markers)));
          const d = describe(scans);
          return row(d.passed, d.passed ? `${files.length} file${files.length > 1 ? 's' : ''}, ${d.message}` : d.message, d.waivers.length ? { waivers: d.waivers } : {});
        }
        const d = describe([await scanFile(host, full, a.name, markers)]);
        return row(d.passed, d.message, d.waivers.length ? { waivers: d.waivers } : {});
      }),
    );
  },
});

export const completenessGatePlugin = definePlugin({
  name: 'sluice:gate-completeness',
  setup(ctx) {
    ctx.registerGate(completenessGate);
  },
});
