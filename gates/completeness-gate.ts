import * as v from 'valibot';
import { defineGate, gatePlugin, type GateResult, type Host } from '../core/index.ts';
import { DEFAULT_PLACEHOLDER_MARKERS, markdownCodeLines, scanPlaceholders, type PlaceholderScan } from './completeness/placeholder-scan.ts';
import { notRequiredRow } from './integrity-gate.ts';
import { ArtifactRefSchema } from './shared/artifact-ref.ts';
import { isTextArtifact, listFilesUnder, projectFile, readTextFile } from './shared/project-file.ts';

export const CompletenessInputSchema = v.object({
  projectRoot: v.string(),
  artifacts: v.array(ArtifactRefSchema),
  /** Profile `sluice.placeholder_markers`; the defaults when absent. */
  markers: v.optional(v.array(v.string())),
});
export type CompletenessInput = v.InferOutput<typeof CompletenessInputSchema>;

export const G2 = 'G2-completeness';

interface FileScan {
  file: string;
  /** The file relative to the project root, for the row's `file`. */
  rel: string;
  scan?: PlaceholderScan;
  empty?: boolean;
  error?: string;
}

async function scanFile(host: Host, full: string, label: string, rel: string, markers: readonly string[]): Promise<FileScan> {
  const read = await readTextFile(host, full);
  if ('error' in read) return { file: label, rel, error: read.error };
  if (read.text.trim() === '') return { file: label, rel, empty: true };
  // Code blocks only take findings away, so a file with none outside them is done without the
  // markdown parser (the usual case once an artifact is finished).
  const plain = scanPlaceholders(read.text, markers);
  const clean = plain.hits.length === 0 && plain.waivers.length === 0 && plain.badWaivers.length === 0;
  if (clean || !/\.(md|markdown)$/i.test(full)) return { file: label, rel, scan: plain };
  return { file: label, rel, scan: scanPlaceholders(read.text, markers, await markdownCodeLines(read.text)) };
}

/** One sentence for a row: the first few problems, with file and line. */
function describe(scans: FileScan[]): ArtifactCompleteness {
  const problems: string[] = [];
  let at: ArtifactCompleteness['at'];
  const waivers: { file: string; line: number; who: string; why: string; markers: string[] }[] = [];
  for (const s of scans) {
    if (s.error) problems.push(`${s.file} ${s.error}`);
    if (s.empty) problems.push(`${s.file} is empty`);
    for (const h of s.scan?.hits ?? []) problems.push(`${h.text} at ${s.file}:${h.line}`);
    for (const b of s.scan?.badWaivers ?? []) problems.push(`WAIVED line at ${s.file}:${b.line} needs "who — why"`);
    const line = s.scan?.hits[0]?.line ?? s.scan?.badWaivers[0]?.line;
    if (at === undefined && problems.length > 0) at = line === undefined ? { file: s.rel } : { file: s.rel, line };
    for (const w of s.scan?.waivers ?? []) waivers.push({ file: s.file, line: w.line, who: w.who, why: w.why, markers: w.markers.map((m) => m.text) });
  }
  const waived = waivers.length
    ? `; ${waivers.length} waiver${waivers.length > 1 ? 's' : ''}: ${waivers.map((w) => `${w.who} — ${w.why} (${w.file}:${w.line})`).join('; ')}`
    : '';
  if (problems.length === 0) return { passed: true, message: `complete${waived}`, waivers };
  const shown = problems.slice(0, 5).join(', ');
  return { passed: false, message: `incomplete: ${shown}${problems.length > 5 ? ` and ${problems.length - 5} more` : ''}${waived}`, waivers, at };
}

export interface ArtifactCompleteness {
  passed: boolean;
  message: string;
  /** Waivers found (the artifact passes G2 through them, but is not complete for G4). */
  waivers: { file: string; line: number; who: string; why: string; markers: string[] }[];
  /** `info` null: the path is missing. */
  missing?: boolean;
  /** Where the first problem is (project-relative file, and line for a marker): what CI annotations point at. */
  at?: { file: string; line?: number };
}

/**
 * Is one artifact (file or folder) present, non-empty and free of placeholder markers? Shared by
 * G2 and by G4's `artifact_content` checks, which need the artifact complete as well as on topic.
 */
export async function checkArtifactCompleteness(
  host: Host,
  projectRoot: string,
  rel: string,
  name: string,
  markers: readonly string[] = DEFAULT_PLACEHOLDER_MARKERS,
): Promise<ArtifactCompleteness> {
  const { full, info } = await projectFile(host, projectRoot, rel);
  if (info === null)
    return { passed: false, message: `cannot check completeness: ${rel} is missing`, waivers: [], missing: true, at: { file: rel.replace(/\/$/, '') } };
  if (info.kind === 'dir') {
    const files = await listFilesUnder(host, full);
    if (files.length === 0) return { passed: false, message: `${rel} is an empty folder`, waivers: [], at: { file: rel.replace(/\/$/, '') } };
    const texts = files.filter(isTextArtifact);
    const sub = (f: string) => f.slice(full.length + 1);
    const scans = await Promise.all(
      texts.map((f) => scanFile(host, f, `${name.replace(/\/$/, '')}/${sub(f)}`, `${rel.replace(/\/$/, '')}/${sub(f)}`, markers)),
    );
    const d = describe(scans);
    return { ...d, message: d.passed ? `${files.length} file${files.length > 1 ? 's' : ''}, ${d.message}` : d.message };
  }
  return describe([await scanFile(host, full, name, rel, markers)]);
}

/** G2: required artifacts have content and no placeholder markers (outside code, unless waived). MUST. */
export const completenessGate = defineGate({
  type: 'completeness',
  id: G2,
  description: 'required artifacts are non-empty and free of placeholder markers',
  input: CompletenessInputSchema,
  async check(input, { host }) {
    return Promise.all(
      input.artifacts.map(async (a): Promise<GateResult> => {
        if (!a.applies) return notRequiredRow(G2, a);
        const d = await checkArtifactCompleteness(host, input.projectRoot, a.rel, a.name, input.markers);
        return {
          gate: G2,
          id: `G2:${a.name}`,
          artifact: a.name,
          passed: d.passed,
          message: d.message,
          severity: 'MUST',
          // Where CI annotates the row: the file (and line) of its first problem.
          ...(d.at ? { file: d.at.file, ...(d.at.line === undefined ? {} : { line: d.at.line }) } : {}),
          ...(d.waivers.length ? { waivers: d.waivers } : {}),
        };
      }),
    );
  },
});

export const completenessGatePlugin = gatePlugin(completenessGate);
