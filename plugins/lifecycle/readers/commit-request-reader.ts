import * as v from 'valibot';
import type { Host } from '../../../core/index.ts';
import { readArtifactJson } from './read-artifact.ts';

/**
 * `{artifact_dir}/commit-request.json`, written by the commit stage: the message and the exact paths
 * (relative to the project) of this requirement's change. sluice previews it, needs authorization,
 * and stages exactly these paths. It carries no authorization of its own: any such key is ignored.
 *
 *   { "message": "feat(parser): accept empty input", "paths": ["src/parser.ts", "test/parser.test.ts"] }
 */
export const COMMIT_REQUEST = 'commit-request.json';

const RepoPath = v.pipe(
  v.string(),
  v.minLength(1),
  v.check((p) => !p.startsWith('/') && !p.includes('\0') && !p.split(/[\\/]/).includes('..'), 'paths must be relative to the project, without ".."'),
  v.check((p) => !/^(\.prizmkit\/state|\.sluice|\.git)(\/|$)/.test(p), 'sluice state, .sluice and .git are never committed'),
  v.check((p) => !p.startsWith('-'), 'a path cannot start with "-"'),
);

export const CommitRequestSchema = v.looseObject({
  message: v.pipe(v.string(), v.trim(), v.minLength(1, 'message is empty'), v.maxLength(10_000)),
  paths: v.pipe(v.array(RepoPath), v.minLength(1, 'paths is empty'), v.maxLength(10_000), v.check((l) => new Set(l).size === l.length, 'a path is listed twice')),
});
export type CommitRequest = v.InferOutput<typeof CommitRequestSchema>;

export async function readCommitRequest(host: Host, root: string, artifactDir: string): Promise<CommitRequest & { file: string }> {
  const file = `${artifactDir}/${COMMIT_REQUEST}`;
  return { ...(await readArtifactJson(host, root, file, CommitRequestSchema)), file };
}
