import * as v from 'valibot';
import { defineGate, gatePlugin, type GateResult, type Host } from '../core/index.ts';
import { DEFAULT_COVERAGE_REPORTS, readCoverage } from './coverage/read-coverage.ts';
import { coverageProblem } from './metrics-gate.ts';
import { checkArtifactCompleteness } from './completeness-gate.ts';
import { isTextArtifact, listFilesUnder, projectFile, readTextFile } from './shared/project-file.ts';

/** One check of a frozen compliance file, as the planner passes it (threshold already looked up in the profile). */
export const ComplianceCheckSchema = v.object({
  framework: v.string(),
  file: v.string(),
  id: v.string(),
  name: v.string(),
  criteria: v.optional(v.string()),
  description: v.optional(v.string()),
  check_type: v.picklist(['artifact_exists', 'artifact_content', 'manual', 'metric']),
  severity: v.picklist(['MUST', 'SHOULD', 'MAY']),
  artifact: v.optional(v.string()),
  /** Project-relative path of `artifact` in the phase folder. */
  artifactRel: v.optional(v.string()),
  required_content: v.optional(v.array(v.string())),
  metric: v.optional(v.literal('coverage')),
  threshold_key: v.optional(v.string()),
  /** The profile value at `threshold_key`; absent when the profile does not set it. */
  threshold: v.optional(v.number()),
});
export type ComplianceCheck = v.InferOutput<typeof ComplianceCheckSchema>;

export const ComplianceInputSchema = v.object({
  projectRoot: v.string(),
  checks: v.array(ComplianceCheckSchema),
  /** Frameworks the profile lists whose frozen gate file is missing: each a MUST failure. */
  missing: v.array(v.object({ framework: v.string(), file: v.string() })),
  coverageReports: v.optional(v.array(v.string())),
  /** G2's markers (profile `sluice.placeholder_markers`): an `artifact_content` check needs the artifact complete. */
  markers: v.optional(v.array(v.string())),
});
export type ComplianceInput = v.InferOutput<typeof ComplianceInputSchema>;

export const G4 = 'G4-compliance';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A required phrase appears when it starts at a word boundary, any case ("Authorization" and "authorizations" both count). */
const mentions = (text: string, phrase: string) => new RegExp(`(?<![A-Za-z0-9])${escape(phrase).replace(/\s+/g, '\\s+')}`, 'i').test(text);

async function artifactText(host: Host, projectRoot: string, rel: string): Promise<{ text: string } | { error: string }> {
  const { full, info } = await projectFile(host, projectRoot, rel);
  if (info === null) return { error: `${rel} is missing` };
  if (info.kind !== 'dir') return readTextFile(host, full);
  const parts: string[] = [];
  for (const f of (await listFilesUnder(host, full)).filter(isTextArtifact)) {
    const r = await readTextFile(host, f);
    if ('text' in r) parts.push(r.text);
  }
  return { text: parts.join('\n') };
}

async function runCheck(host: Host, input: ComplianceInput, c: ComplianceCheck): Promise<GateResult> {
  const row = (passed: boolean | null, message: string): GateResult => ({
    gate: G4,
    id: c.id,
    ...(c.artifact ? { artifact: c.artifact } : { check: `${c.framework}: ${c.criteria ?? c.name}` }),
    passed,
    message,
    severity: c.severity,
    framework: c.framework,
  });
  const label = `${c.framework} ${c.criteria ?? c.name}`;
  switch (c.check_type) {
    case 'manual':
      return row(null, `${label}: ${c.description ?? c.name} (manual sign-off)`);
    case 'artifact_exists': {
      const { full, info } = await projectFile(host, input.projectRoot, c.artifactRel!);
      if (info === null) return row(false, `${label}: ${c.artifactRel} is missing`);
      // An empty folder is no evidence (an `adrs/` with no decision in it), as in the reference.
      if (info.kind === 'dir' && (await listFilesUnder(host, full, 1)).length === 0) return row(false, `${label}: ${c.artifactRel} is an empty folder`);
      return row(true, `${label}: ${c.artifactRel} exists`);
    }
    case 'artifact_content': {
      // Naming the keywords in an unfinished template is not evidence: the artifact must be complete
      // too. A waiver lets G2 through, not a compliance control.
      const complete = await checkArtifactCompleteness(host, input.projectRoot, c.artifactRel!, c.artifact!, input.markers);
      if (complete.missing) return row(false, `${label}: ${c.artifactRel} is missing`);
      if (!complete.passed || complete.waivers.length > 0)
        return row(false, `${label}: ${c.artifact} is not complete: ${complete.passed ? `waived by ${complete.waivers[0].who}` : complete.message}`);
      const read = await artifactText(host, input.projectRoot, c.artifactRel!);
      if ('error' in read) return row(false, `${label}: ${read.error}`);
      const absent = (c.required_content ?? []).filter((p) => !mentions(read.text, p));
      return row(
        absent.length === 0,
        absent.length === 0
          ? `${label}: ${c.artifact} covers ${(c.required_content ?? []).join(', ')}`
          : `${label}: ${c.artifact} does not mention ${absent.map((p) => JSON.stringify(p)).join(', ')}`,
      );
    }
    case 'metric': {
      if (c.threshold === undefined) return row(false, `${label}: the profile does not set ${c.threshold_key}, so there is no threshold to meet`);
      const lookup = await readCoverage(host, input.projectRoot, input.coverageReports ?? DEFAULT_COVERAGE_REPORTS);
      const problem = coverageProblem(lookup);
      // As in G3: no report at all is a person's judgement to sign off, an unreadable one fails.
      if ('missing' in lookup) return row(null, `${label}: ${problem}, or a person signs the figure off (manual)`);
      if (problem || !('report' in lookup)) return row(false, `${label}: ${problem}`);
      const { pct, source } = lookup.report;
      return row(
        pct >= c.threshold,
        `${label}: line coverage ${pct}% (${source}) ${pct >= c.threshold ? 'meets' : 'is below'} ${c.threshold_key} ${c.threshold}%`,
      );
    }
  }
}

/** G4: the checks of the frozen compliance files (soc2, hipaa, gdpr...) for this phase. Severity per check. */
export const complianceGate = defineGate({
  type: 'compliance',
  id: G4,
  description: 'checks of the frozen compliance files for the phase (artifact_exists, artifact_content, manual, metric)',
  input: ComplianceInputSchema,
  async check(input, { host }) {
    const missing = input.missing.map(
      (m): GateResult => ({
        gate: G4,
        id: `G4:${m.framework}`,
        check: `${m.framework} gate file`,
        passed: false,
        message: `the profile enforces ${m.framework} but ${m.file} is missing; re-run sluice init --force or restore it`,
        severity: 'MUST',
      }),
    );
    return [...missing, ...(await Promise.all(input.checks.map((c) => runCheck(host, input, c))))];
  },
});

export const complianceGatePlugin = gatePlugin(complianceGate);
