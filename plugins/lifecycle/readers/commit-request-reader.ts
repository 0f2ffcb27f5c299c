import * as v from 'valibot';
import type { Host } from '../../../core/index.ts';
import { runGit } from '../workspace/run-git.ts';
import { artifactExists, artifactInvalid, parseArtifactJson, readArtifact, validateArtifact, type ArtifactFormat, type ArtifactRef } from './read-artifact.ts';

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
  paths: v.pipe(
    v.array(RepoPath),
    v.minLength(1, 'paths is empty'),
    v.maxLength(10_000),
    v.check((l) => new Set(l).size === l.length, 'a path is listed twice'),
  ),
});
export type CommitRequest = v.InferOutput<typeof CommitRequestSchema>;

/**
 * PrizmKit v4's `{artifact_dir}/runtime-commit-request.json` (committer `operation=prepare-runtime-commit`):
 *
 *   { "schema_version": 1, "artifact_dir": ".prizmkit/specs/x", "base_head": "<full HEAD>",
 *     "commit_message": "feat(scope): one line", "intended_paths": ["src/x.py"] }
 *
 * It is data to validate, never an authorization. `base_head` must still be HEAD: a request made
 * before HEAD moved describes another change and is refused.
 */
export const RUNTIME_COMMIT_REQUEST = 'runtime-commit-request.json';

export const RuntimeCommitRequestSchema = v.strictObject({
  schema_version: v.literal(1, 'schema_version must be 1'),
  artifact_dir: v.string(),
  base_head: v.pipe(v.string(), v.regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/, 'base_head must be the full HEAD commit hash')),
  commit_message: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, 'commit_message is empty'),
    v.check((m) => !m.includes('\n'), 'commit_message must be one line'),
  ),
  intended_paths: v.pipe(
    v.array(RepoPath),
    v.minLength(1, 'intended_paths is empty'),
    v.maxLength(10_000),
    v.check((l) => new Set(l).size === l.length, 'a path is listed twice'),
  ),
});

export interface ReadCommitRequest extends CommitRequest {
  file: string;
  format: ArtifactFormat;
  artifacts: ArtifactRef[];
  /** v4: the HEAD the request was made on (checked to be HEAD now). */
  base_head?: string;
}

/** sluice's `commit-request.json`, or PrizmKit v4's `runtime-commit-request.json`; never both. */
export async function readCommitRequest(host: Host, root: string, artifactDir: string): Promise<ReadCommitRequest> {
  const file = `${artifactDir}/${COMMIT_REQUEST}`;
  const runtime = `${artifactDir}/${RUNTIME_COMMIT_REQUEST}`;
  const hasRuntime = await artifactExists(host, root, runtime);
  if (hasRuntime && (await artifactExists(host, root, file)))
    throw artifactInvalid(runtime, undefined, `both ${COMMIT_REQUEST} and ${RUNTIME_COMMIT_REQUEST} exist; keep one commit request`);
  if (!hasRuntime) {
    const { text, sha256 } = await readArtifact(host, root, file);
    const request = validateArtifact(CommitRequestSchema, parseArtifactJson(text, file), file);
    return { ...request, file, format: 'sluice', artifacts: [{ file, sha256, format: 'sluice' }] };
  }
  const { text, sha256 } = await readArtifact(host, root, runtime);
  const r = validateArtifact(RuntimeCommitRequestSchema, parseArtifactJson(text, runtime), runtime);
  if (r.artifact_dir.replace(/\/+$/, '') !== artifactDir)
    throw artifactInvalid(runtime, 'artifact_dir', `names ${r.artifact_dir}, this requirement's is ${artifactDir}`);
  if (r.intended_paths.includes(runtime)) throw artifactInvalid(runtime, 'intended_paths', 'the request cannot commit itself');
  await checkBaseHead(host, root, r.base_head, runtime);
  return {
    message: r.commit_message,
    paths: r.intended_paths,
    base_head: r.base_head,
    file: runtime,
    format: 'prizmkit-v4',
    artifacts: [{ file: runtime, sha256, format: 'prizmkit-v4' }],
  };
}

/** Refuses a request made on another HEAD: the change it lists was judged against different code. */
export async function checkBaseHead(host: Host, root: string, baseHead: string, file: string): Promise<void> {
  const head = (await runGit(host, root, ['rev-parse', '--verify', '-q', 'HEAD'])).stdout.trim();
  if (head !== baseHead)
    throw artifactInvalid(file, 'base_head', `the request was made on ${baseHead.slice(0, 12)}, HEAD is now ${head.slice(0, 12) || 'unborn'}`);
}
