import * as v from 'valibot';
import type { Host } from '../../../core/index.ts';
import {
  artifactInvalid,
  checkCitedFiles,
  parseArtifactJson,
  readArtifact,
  readArtifactJson,
  validateArtifact,
  type ArtifactFormat,
  type ArtifactRef,
} from './read-artifact.ts';

/**
 * `{artifact_dir}/retrospective-result.json`. DOCS_UPDATED and NO_DOC_CHANGE are mutually exclusive:
 *
 *   { "result": "DOCS_UPDATED", "docs_updated": [".prizmkit/prizm-docs/parser.md"], "summary": "..." }
 *   { "result": "NO_DOC_CHANGE", "summary": "nothing architectural changed" }
 *
 * `docs_updated` paths are relative to the project and must exist.
 */
export const RETROSPECTIVE_RESULT = 'retrospective-result.json';

export const RetrospectiveResultSchema = v.pipe(
  v.looseObject({
    result: v.picklist(['DOCS_UPDATED', 'NO_DOC_CHANGE'], 'result must be DOCS_UPDATED or NO_DOC_CHANGE'),
    docs_updated: v.optional(v.array(v.pipe(v.string(), v.minLength(1)))),
    summary: v.optional(v.string()),
  }),
  v.forward(
    v.check((r) => r.result !== 'DOCS_UPDATED' || (r.docs_updated ?? []).length > 0, 'DOCS_UPDATED must list the documents in docs_updated'),
    ['docs_updated'],
  ),
  v.forward(
    v.check((r) => r.result !== 'NO_DOC_CHANGE' || (r.docs_updated ?? []).length === 0, 'NO_DOC_CHANGE cannot list updated documents'),
    ['docs_updated'],
  ),
);
export type RetrospectiveResult = v.InferOutput<typeof RetrospectiveResultSchema>;

export async function readRetrospectiveResult(host: Host, root: string, artifactDir: string): Promise<RetrospectiveResult & { file: string }> {
  const file = `${artifactDir}/${RETROSPECTIVE_RESULT}`;
  const result = await readArtifactJson(host, root, file, RetrospectiveResultSchema);
  await checkCitedFiles(host, root, 'the project', result.docs_updated ?? [], file, 'docs_updated');
  return { ...result, file };
}

/**
 * PrizmKit's `retrospective-result.json`:
 *   v2: { "status": "RETRO_COMPLETE", "result": "DOCS_UPDATED", "reason": "...", "review_verdict": "PASS", "test_verdict": "TEST_PASS" }
 *   v3: { "status": "completed", "stage_result": "RETRO_COMPLETE", "result": ..., "reason", "review_verdict", "test_verdict" }
 *   v4: { "schema_version": 1, "outcome": "RETRO_COMPLETE" | "RETRO_BLOCKED", "result": ... | null, "reason": "...",
 *         "change_paths": [...], "documentation_paths": [".prizmkit/prizm-docs/x.prizm"], "validation": [...] }
 * RETRO_BLOCKED (v2 status, v3 failed/RETRO_BLOCKED, v4 outcome) becomes WORKFLOW_BLOCKED.
 */
const DocResult = v.picklist(['DOCS_UPDATED', 'NO_DOC_CHANGE'], 'result must be DOCS_UPDATED or NO_DOC_CHANGE');
const Reason = v.pipe(v.string(), v.trim(), v.minLength(1, 'reason is empty'));
const RelPath = v.pipe(
  v.string(),
  v.minLength(1),
  v.check((p) => !p.includes('\\') && !p.startsWith('/') && !p.includes('//') && !/(^|\/)\.\.?(\/|$)/.test(p), 'must be a plain project-relative path'),
);

const V2V3Fields = {
  reason: Reason,
  review_verdict: v.optional(v.string()),
  test_verdict: v.optional(v.string()),
};
export const RetrospectiveV2Schema = v.pipe(
  v.looseObject({
    status: v.picklist(['RETRO_COMPLETE', 'RETRO_BLOCKED'], 'status must be RETRO_COMPLETE or RETRO_BLOCKED'),
    result: v.optional(v.nullable(DocResult)),
    ...V2V3Fields,
  }),
  v.forward(
    v.check((r) => r.status !== 'RETRO_COMPLETE' || r.result != null, 'RETRO_COMPLETE needs result DOCS_UPDATED or NO_DOC_CHANGE'),
    ['result'],
  ),
);
export const RetrospectiveV3Schema = v.pipe(
  v.looseObject({
    status: v.picklist(['completed', 'failed'], 'status must be completed or failed'),
    stage_result: v.picklist(['RETRO_COMPLETE', 'RETRO_BLOCKED'], 'stage_result must be RETRO_COMPLETE or RETRO_BLOCKED'),
    result: v.optional(v.nullable(DocResult)),
    ...V2V3Fields,
  }),
  v.forward(
    v.check(
      (r) => (r.status === 'completed') === (r.stage_result === 'RETRO_COMPLETE'),
      'status completed goes with RETRO_COMPLETE, failed with RETRO_BLOCKED',
    ),
    ['stage_result'],
  ),
  v.forward(
    v.check((r) => r.stage_result !== 'RETRO_COMPLETE' || r.result != null, 'RETRO_COMPLETE needs result DOCS_UPDATED or NO_DOC_CHANGE'),
    ['result'],
  ),
);
export const RetrospectiveV4Schema = v.pipe(
  v.strictObject({
    schema_version: v.literal(1, 'schema_version must be 1'),
    outcome: v.picklist(['RETRO_COMPLETE', 'RETRO_BLOCKED'], 'outcome must be RETRO_COMPLETE or RETRO_BLOCKED'),
    result: v.nullable(DocResult),
    reason: Reason,
    change_paths: v.array(
      v.pipe(
        RelPath,
        v.check((p) => !/^\.prizmkit(\/|$)/.test(p), 'change_paths are outside .prizmkit/'),
      ),
    ),
    documentation_paths: v.array(
      v.pipe(RelPath, v.regex(/^\.prizmkit\/prizm-docs\/.+\.prizm$/, 'documentation paths are .prizmkit/prizm-docs/**.prizm files')),
    ),
    validation: v.array(v.pipe(v.string(), v.minLength(1))),
  }),
  v.forward(
    v.check((r) => (r.outcome === 'RETRO_BLOCKED') === (r.result === null), 'RETRO_COMPLETE needs a result; RETRO_BLOCKED has result null'),
    ['result'],
  ),
  v.forward(
    v.check((r) => r.result !== 'DOCS_UPDATED' || r.documentation_paths.length > 0, 'DOCS_UPDATED must list documentation_paths'),
    ['documentation_paths'],
  ),
  v.forward(
    v.check((r) => r.result !== 'DOCS_UPDATED' || r.validation.length > 0, 'DOCS_UPDATED must list the validation done'),
    ['validation'],
  ),
);

export interface RetrospectiveEvidence {
  blocked: boolean;
  result: 'DOCS_UPDATED' | 'NO_DOC_CHANGE' | null;
  reason: string;
  file: string;
  format: ArtifactFormat;
  artifacts: ArtifactRef[];
}

/** What sluice recorded for review and test; a retrospective claiming other verdicts is refused. */
export interface RecordedVerdicts {
  review: string | null;
  test: string | null;
}

export async function readRetrospective(
  host: Host,
  root: string,
  artifactDir: string,
  recorded: RecordedVerdicts = { review: null, test: null },
): Promise<RetrospectiveEvidence> {
  const file = `${artifactDir}/${RETROSPECTIVE_RESULT}`;
  const { text, sha256 } = await readArtifact(host, root, file);
  const raw = parseArtifactJson(text, file);
  const o = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const ref = (format: ArtifactFormat) => [{ file, sha256, format }];
  if ('outcome' in o || 'schema_version' in o) {
    const r = validateArtifact(RetrospectiveV4Schema, raw, file);
    if (r.result === 'DOCS_UPDATED') await checkCitedFiles(host, root, 'the project', r.documentation_paths, file, 'documentation_paths');
    return { blocked: r.outcome === 'RETRO_BLOCKED', result: r.result, reason: r.reason, file, format: 'prizmkit-v4', artifacts: ref('prizmkit-v4') };
  }
  if ('stage_result' in o || o.status === 'completed' || o.status === 'failed') {
    const r = validateArtifact(RetrospectiveV3Schema, raw, file);
    const blocked = r.stage_result === 'RETRO_BLOCKED';
    if (!blocked) checkVerdicts(r, recorded, file);
    return { blocked, result: r.result ?? null, reason: r.reason, file, format: 'prizmkit-v3', artifacts: ref('prizmkit-v3') };
  }
  if ('status' in o || 'reason' in o) {
    const r = validateArtifact(RetrospectiveV2Schema, raw, file);
    const blocked = r.status === 'RETRO_BLOCKED';
    if (!blocked) checkVerdicts(r, recorded, file);
    return { blocked, result: r.result ?? null, reason: r.reason, file, format: 'prizmkit-v2', artifacts: ref('prizmkit-v2') };
  }
  const r = await readRetrospectiveResult(host, root, artifactDir);
  return { blocked: false, result: r.result, reason: r.summary ?? '', file, format: 'sluice', artifacts: ref('sluice') };
}

/** `review_verdict` and `test_verdict` must be what sluice recorded (PASS / TEST_PASS when nothing was). */
function checkVerdicts(r: { review_verdict?: string; test_verdict?: string }, recorded: RecordedVerdicts, file: string): void {
  const checks: [string, string | undefined, string][] = [
    ['review_verdict', r.review_verdict?.replace(/^REVIEW_/, ''), recorded.review ?? 'PASS'],
    ['test_verdict', r.test_verdict, recorded.test ?? 'TEST_PASS'],
  ];
  for (const [field, said, expected] of checks) {
    if (said === undefined) throw artifactInvalid(file, field, `${field} is missing; it must be ${expected}, the verdict sluice recorded`);
    if (said !== expected) throw artifactInvalid(file, field, `says ${said}, but sluice recorded ${expected}`);
  }
}
