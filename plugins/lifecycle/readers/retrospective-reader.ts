import * as v from 'valibot';
import type { Host } from '../../../core/index.ts';
import { checkCitedFiles, readArtifactJson } from './read-artifact.ts';

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
  v.forward(v.check((r) => r.result !== 'DOCS_UPDATED' || (r.docs_updated ?? []).length > 0, 'DOCS_UPDATED must list the documents in docs_updated'), ['docs_updated']),
  v.forward(v.check((r) => r.result !== 'NO_DOC_CHANGE' || (r.docs_updated ?? []).length === 0, 'NO_DOC_CHANGE cannot list updated documents'), ['docs_updated']),
);
export type RetrospectiveResult = v.InferOutput<typeof RetrospectiveResultSchema>;

export async function readRetrospectiveResult(host: Host, root: string, artifactDir: string): Promise<RetrospectiveResult & { file: string }> {
  const file = `${artifactDir}/${RETROSPECTIVE_RESULT}`;
  const result = await readArtifactJson(host, root, file, RetrospectiveResultSchema);
  await checkCitedFiles(host, root, 'the project', result.docs_updated ?? [], file, 'docs_updated');
  return { ...result, file };
}
