import type { LifecycleContext } from '../lifecycle-context.ts';
import type { Fingerprint, WorkflowState } from '../state/workflow-state-schema.ts';
import { isSluiceRuntimePath } from '../workspace/git-status.ts';
import { runGit, runGitBytes } from '../workspace/run-git.ts';
import { isDocumentationPath, isTestPath } from '../workspace/test-paths.ts';
import { fileDigest, isArtifactPath } from '../workspace/workspace-fingerprint.ts';

/** Same length as the fingerprint's per-file digests (workspace-fingerprint.ts). */
const DIGEST_CHARS = 16;
/** The fingerprint hashes files up to this size; a bigger blob cannot be compared with what a gate saw. */
const MAX_BLOB_BYTES = 32 * 1024 * 1024;

export interface CommittedContent {
  /** The tree or commit whose files are checked. */
  rev: string;
  /** Paths (relative to the project) that differ from its parent. */
  changed: readonly string[];
  /** Paths the gates saw uncommitted that must be in `rev` as they saw them (adopting a commit: the requirement's work). */
  required?: (path: string) => boolean;
}

type Gate = 'code-review' | 'test' | 'retrospective';

/**
 * Whether a tree holds exactly what the gates saw: every file it changes, and every file the gates saw
 * uncommitted that it must carry, is byte for byte the content review, test and retrospective recorded
 * (production code for all three, tests for test and retrospective, documentation for the
 * retrospective, as the commit's re-check has it). A file a gate saw unchanged must be as it was in that
 * gate's HEAD. Returns one line per file that differs; empty when the content is the reviewed content.
 */
export async function contentMismatches(lc: LifecycleContext, state: WorkflowState, content: CommittedContent, config: readonly string[]): Promise<string[]> {
  const gates = (['code-review', 'test', 'retrospective'] as const).map((g) => [g, state.results[g]?.fingerprint ?? null] as const);
  const missing = gates.filter(([, f]) => !f?.files).map(([g]) => g);
  if (missing.length > 0) return [`no per-file fingerprint was recorded with ${missing.join(', ')}`];
  const recordedArtifacts = new Set(Object.values(state.results).flatMap((r) => Object.keys(r?.artifacts ?? {})));
  const counts = (p: string) => !isArtifactPath(p) && !isSluiceRuntimePath(p) && !recordedArtifacts.has(p) && !p.startsWith('../');
  const seen = new Set(gates.flatMap(([, f]) => Object.keys(f!.files!)).filter((p) => content.required?.(p)));
  const paths = [...new Set([...content.changed, ...seen])].filter(counts).sort();
  const heads = [...new Set(gates.map(([, f]) => f!.head).filter((h): h is string => h !== null))];
  const blobs = await blobIds(lc, [content.rev, ...heads], paths, config);
  const digests = await blobDigests(
    lc,
    paths.map((p) => blobs.get(content.rev)?.get(p)).filter((x): x is string => x !== undefined),
    config,
  );
  const out: string[] = [];
  for (const p of paths) {
    const blob = blobs.get(content.rev)?.get(p);
    const have = blob === undefined ? 'deleted' : (digests.get(blob) ?? 'unreadable');
    const wrong: Gate[] = [];
    for (const [gate, f] of gates) {
      if (!appliesTo(gate, p)) continue;
      const fp = f as Fingerprint;
      const want = fp.files![p];
      const same =
        want !== undefined
          ? want === have || (blob !== undefined && (await sameAfterConversion(lc, p, want, blob, config)))
          : (fp.head === null ? undefined : blobs.get(fp.head)?.get(p)) === blob;
      if (!same) wrong.push(gate);
    }
    if (wrong.length > 0) out.push(`${p}${blob === undefined ? ' (not in it)' : ''} is not what ${wrong.join(' and ')} saw`);
  }
  return out;
}

/** Production code is checked against all three gates, tests against test and retrospective, documentation against the retrospective. */
function appliesTo(gate: Gate, path: string): boolean {
  if (isDocumentationPath(path)) return gate === 'retrospective';
  if (isTestPath(path)) return gate !== 'code-review';
  return true;
}

/** For each revision, path → blob id of the files it has (absent: not there). One `ls-tree` per revision. */
async function blobIds(
  lc: LifecycleContext,
  revs: readonly string[],
  paths: readonly string[],
  config: readonly string[],
): Promise<Map<string, Map<string, string>>> {
  const out = new Map<string, Map<string, string>>();
  for (const rev of new Set(revs)) {
    const found = new Map<string, string>();
    if (paths.length > 0) {
      const r = await runGit(lc.host, lc.root, ['ls-tree', '-r', '-z', rev, '--', ...paths], { config });
      for (const line of r.code === 0 ? r.stdout.split('\0') : []) {
        const m = /^\d+ blob ([0-9a-f]+)\t(.*)$/s.exec(line);
        if (m) found.set(m[2], m[1]);
      }
    }
    out.set(rev, found);
  }
  return out;
}

/** blob id → the fingerprint's digest of its bytes (sha256, shortened), read in one `cat-file --batch`. */
async function blobDigests(lc: LifecycleContext, ids: readonly string[], config: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const unique = [...new Set(ids)];
  if (unique.length === 0) return out;
  const r = await runGitBytes(lc.host, lc.root, ['cat-file', '--batch'], { config, input: `${unique.join('\n')}\n` });
  if (r.code !== 0) return out;
  const bytes = r.stdout;
  let at = 0;
  for (const id of unique) {
    const nl = bytes.indexOf(10, at);
    if (nl < 0) break;
    const header = new TextDecoder().decode(bytes.subarray(at, nl));
    const m = /^([0-9a-f]+) blob (\d+)$/.exec(header);
    if (!m) break;
    const size = Number(m[2]);
    const body = bytes.subarray(nl + 1, nl + 1 + size);
    out.set(id, size > MAX_BLOB_BYTES ? `large:${size}` : lc.host.sha256(body).slice(0, DIGEST_CHARS));
    at = nl + 1 + size + 1;
  }
  return out;
}

/**
 * A blob can differ from the bytes a gate hashed only by git's own line-ending or encoding conversion
 * (`text`/`eol` attributes, autocrlf): then the work tree file is still as the gate saw it, and git turns
 * it into this very blob.
 */
async function sameAfterConversion(lc: LifecycleContext, path: string, want: string, blob: string, config: readonly string[]): Promise<boolean> {
  if ((await fileDigest(lc.host, lc.root, path)) !== want) return false;
  const r = await runGit(lc.host, lc.root, ['hash-object', `--path=${path}`, '--', path], { config });
  return r.code === 0 && r.stdout.trim() === blob;
}
