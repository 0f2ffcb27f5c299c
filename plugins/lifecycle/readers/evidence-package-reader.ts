import { join } from 'pathe';
import * as v from 'valibot';
import { sha256Hex, SluiceError, type Host } from '../../../core/index.ts';
import { hooklessGitConfig } from '../workspace/hookless-git.ts';
import { runGit } from '../workspace/run-git.ts';
import { keyValues, markdownSections } from './markdown-sections.ts';
import { artifactExists, artifactInvalid, parseArtifactJson, readArtifact, validateArtifact, type ArtifactRef } from './read-artifact.ts';

/**
 * PrizmKit v1's test evidence package, `.prizmkit/test/evidence/<evidence-id>/`: `verdict.json` (the
 * authoritative verdict), `manifest.json` (every file's SHA-256, the identity inputs, the final
 * verdict) and `validation.json` (the validator's attestation over the payload), bound to git by
 * `baseline_commit` and `working_diff_sha256` (the SHA-256 of `source-change.patch`, the target diff).
 *
 * sluice checks what it can without running PrizmKit's validator: the schemas, the identity
 * (`evidence_id` = SHA-256 of the canonical identity inputs = the folder name), every listed file's
 * hash and that no file is unlisted, the attestation's payload hash and verdict, the verdict's own
 * rules, and the binding: `baseline_commit` is HEAD and `git diff <baseline_commit>` is the patch.
 */
export const EVIDENCE_ROOT = '.prizmkit/test/evidence';
const FINAL_RECORDS = new Set(['validation.json', 'verdict.json', 'test-report.md']);
const Sha256 = v.pipe(v.string(), v.regex(/^[a-f0-9]{64}$/, 'must be a lowercase SHA-256'));
const Verdict = v.picklist(['TEST_PASS', 'TEST_FAIL', 'TEST_BLOCKED'], 'must be TEST_PASS, TEST_FAIL or TEST_BLOCKED');
const Strings = v.array(v.pipe(v.string(), v.minLength(1)));

export const V1VerdictSchema = v.pipe(
  v.object({
    verdict: Verdict,
    testing_domain_only: v.literal(true, 'testing_domain_only must be true'),
    authorizes_commit_or_release: v.literal(false, 'a test verdict never authorizes a commit or release'),
    real_environment_validated: v.literal(false, 'code-level evidence cannot claim a real environment'),
    repairs_business_defects: v.literal(false, 'the test stage does not repair business defects'),
    code_evidence_replayable: v.boolean(),
    blockers: Strings,
    reproduced_failures: Strings,
  }),
  v.forward(
    v.check(
      (r) => r.verdict !== 'TEST_PASS' || (r.blockers.length === 0 && r.reproduced_failures.length === 0),
      'TEST_PASS with blockers or reproduced failures',
    ),
    ['verdict'],
  ),
  v.forward(
    v.check((r) => r.verdict !== 'TEST_PASS' || r.code_evidence_replayable, 'TEST_PASS must declare replayable code evidence'),
    ['code_evidence_replayable'],
  ),
  v.forward(
    v.check((r) => r.verdict !== 'TEST_FAIL' || r.reproduced_failures.length > 0, 'TEST_FAIL lists no reproduced failure'),
    ['reproduced_failures'],
  ),
  v.forward(
    v.check((r) => r.verdict !== 'TEST_BLOCKED' || r.blockers.length > 0, 'TEST_BLOCKED lists no blocker'),
    ['blockers'],
  ),
);
export type V1Verdict = v.InferOutput<typeof V1VerdictSchema>;

/** Recognises a v1 verdict record by its fixed responsibility flags. */
export const isV1Verdict = (raw: unknown): boolean => typeof raw === 'object' && raw !== null && 'testing_domain_only' in raw;

export const EvidenceManifestSchema = v.looseObject({
  protocol_version: v.literal('1.0', 'protocol_version must be "1.0"'),
  evidence_id: Sha256,
  evidence_id_inputs: v.object({ baseline_commit: v.pipe(v.string(), v.minLength(1)), working_diff_sha256: Sha256, scope_sha256: Sha256 }),
  baseline_commit: v.pipe(v.string(), v.minLength(1)),
  working_diff_sha256: Sha256,
  files: v.array(v.object({ path: v.pipe(v.string(), v.minLength(1)), sha256: Sha256, produced_by: v.pipe(v.string(), v.minLength(1)) })),
  final_verdict: Verdict,
});
export type EvidenceManifest = v.InferOutput<typeof EvidenceManifestSchema>;

export const EvidenceValidationSchema = v.object({
  validator: v.literal('validate_test_evidence.py'),
  validator_sha256: Sha256,
  payload_sha256: Sha256,
  result: v.literal('passed', 'the validator did not pass this package'),
  verdict: Verdict,
  semantics: v.literal('integrity-and-protocol-validation-not-hostile-producer-proof'),
  replay_receipt_ids: Strings,
});

/** SHA-256 of key-sorted compact JSON, as PrizmKit computes identities and payload hashes. */
export function canonicalSha256(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

export interface EvidencePackage {
  dir: string;
  verdict: V1Verdict;
  manifest: EvidenceManifest;
  artifacts: ArtifactRef[];
}

/** Reads and checks the package of `id` (its folder name). */
export async function readEvidencePackage(host: Host, root: string, id: string): Promise<EvidencePackage> {
  const dir = `${EVIDENCE_ROOT}/${id}`;
  const read = async <S extends v.GenericSchema>(name: string, schema: S) => {
    const file = `${dir}/${name}`;
    const { text, sha256 } = await readArtifact(host, root, file);
    return { value: validateArtifact(schema, parseArtifactJson(text, file), file), ref: { file, sha256, format: 'prizmkit-v1' as const } };
  };
  const manifest = await read('manifest.json', EvidenceManifestSchema);
  const verdict = await read('verdict.json', V1VerdictSchema);
  const validation = await read('validation.json', EvidenceValidationSchema);
  const m = manifest.value;
  const mf = manifest.ref.file;
  if (m.evidence_id !== canonicalSha256(m.evidence_id_inputs)) throw artifactInvalid(mf, 'evidence_id', 'does not match the SHA-256 of evidence_id_inputs');
  if (id !== m.evidence_id) throw artifactInvalid(mf, 'evidence_id', `the package folder is named ${id}, not its evidence_id`);
  if (m.evidence_id_inputs.baseline_commit !== m.baseline_commit)
    throw artifactInvalid(mf, 'evidence_id_inputs.baseline_commit', 'differs from baseline_commit');
  if (m.evidence_id_inputs.working_diff_sha256 !== m.working_diff_sha256)
    throw artifactInvalid(mf, 'evidence_id_inputs.working_diff_sha256', 'differs from working_diff_sha256');
  await checkFileHashes(host, root, dir, m, mf);
  const patch = m.files.find((f) => f.path === 'source-change.patch');
  if (!patch) throw artifactInvalid(mf, 'files', 'the package has no source-change.patch');
  if (patch.sha256 !== m.working_diff_sha256) throw artifactInvalid(mf, 'working_diff_sha256', 'does not match source-change.patch');
  if (verdict.value.verdict !== m.final_verdict)
    throw artifactInvalid(verdict.ref.file, 'verdict', `says ${verdict.value.verdict}, the manifest's final_verdict is ${m.final_verdict}`);
  const payload = m.files
    .filter((f) => !FINAL_RECORDS.has(f.path))
    .map((f) => ({ path: f.path, sha256: f.sha256 }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (validation.value.payload_sha256 !== canonicalSha256(payload))
    throw artifactInvalid(validation.ref.file, 'payload_sha256', 'does not match the files the manifest lists: the package changed after validation');
  if (validation.value.verdict !== m.final_verdict)
    throw artifactInvalid(validation.ref.file, 'verdict', `attests ${validation.value.verdict}, the manifest says ${m.final_verdict}`);
  return { dir, verdict: verdict.value, manifest: m, artifacts: [verdict.ref, manifest.ref, validation.ref] };
}

/** Every file of the package is listed once with its current hash; nothing else is in the folder. */
async function checkFileHashes(host: Host, root: string, dir: string, m: EvidenceManifest, mf: string): Promise<void> {
  const listed = new Set<string>();
  for (const [i, f] of m.files.entries()) {
    if (f.path.startsWith('/') || f.path.split('/').includes('..'))
      throw artifactInvalid(mf, `files.${i}.path`, `${JSON.stringify(f.path)} leaves the package`);
    if (listed.has(f.path)) throw artifactInvalid(mf, `files.${i}.path`, `${f.path} is listed twice`);
    listed.add(f.path);
    let bytes: Uint8Array;
    try {
      bytes = await host.readBytes(join(root, dir, f.path), { maxBytes: 64 * 1024 * 1024 });
    } catch {
      throw artifactInvalid(mf, `files.${i}.path`, `${f.path} is missing from the package`);
    }
    if (host.sha256(bytes) !== f.sha256) throw artifactInvalid(mf, `files.${i}.sha256`, `${f.path} changed after it was hashed`);
  }
  for (const path of await listFiles(host, join(root, dir))) {
    if (path !== 'manifest.json' && !listed.has(path)) throw artifactInvalid(mf, 'files', `${path} is in the package but not in the manifest`);
  }
}

async function listFiles(host: Host, base: string, prefix = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await host.listDir(join(base, prefix))) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.kind === 'dir') out.push(...(await listFiles(host, base, rel)));
    else out.push(rel);
  }
  return out;
}

/**
 * The package is about this workspace: `baseline_commit` is HEAD, and the diff against it is the
 * recorded patch (`git diff`, text or `--binary`). Callers re-check this before relying on the
 * verdict; a commit or an edit since the test run makes it stale. Untracked files are not part of
 * `git diff`, so they are not part of the binding either (as in PrizmKit's own patch).
 */
export async function checkEvidenceBinding(host: Host, root: string, pkg: Pick<EvidencePackage, 'dir' | 'manifest'>): Promise<void> {
  const mf = `${pkg.dir}/manifest.json`;
  const head = (await runGit(host, root, ['rev-parse', '--verify', '-q', 'HEAD'])).stdout.trim();
  const base = await runGit(host, root, ['rev-parse', '--verify', '-q', `${pkg.manifest.baseline_commit}^{commit}`]);
  if (base.code !== 0) throw artifactInvalid(mf, 'baseline_commit', `${pkg.manifest.baseline_commit} is not a commit in this repository`);
  if (base.stdout.trim() !== head)
    throw artifactInvalid(
      mf,
      'baseline_commit',
      `the evidence was made on ${pkg.manifest.baseline_commit.slice(0, 12)}, HEAD is now ${head.slice(0, 12) || 'unborn'}`,
    );
  // Diffing the work tree cleans each file: no external diff, text conversion or filter the repository configures runs.
  const config = await hooklessGitConfig(host, root);
  for (const extra of [[], ['--binary'], ['--binary', '--full-index']]) {
    const diff = await runGit(host, root, ['diff', '--no-ext-diff', '--no-textconv', ...extra, base.stdout.trim()], { config });
    if (diff.code === 0 && host.sha256(diff.stdout) === pkg.manifest.working_diff_sha256) return;
  }
  throw artifactInvalid(
    mf,
    'working_diff_sha256',
    `the workspace's diff against baseline_commit is not the tested source-change.patch: the code changed after the test run`,
  );
}

/**
 * Which package belongs to this requirement: the `Evidence ID:` its derived `test-report.md` names,
 * else the package whose `verdict.json` is byte-identical to `{artifact_dir}/verdict.json`, else the
 * only package made on the current HEAD. Null when there is none.
 */
export async function findEvidencePackage(host: Host, root: string, artifactDir: string): Promise<string | null> {
  const report = `${artifactDir}/test-report.md`;
  if (await artifactExists(host, root, report)) {
    const { text } = await readArtifact(host, root, report);
    for (const s of await markdownSections(text)) {
      const id = keyValues(s.lines).get('evidence id')?.[0];
      if (id !== undefined) {
        if (!/^[a-f0-9]{64}$/.test(id)) throw artifactInvalid(report, 'Evidence ID', `${JSON.stringify(id)} is not an evidence id`);
        return id;
      }
    }
  }
  const ids = (await host.listDir(join(root, EVIDENCE_ROOT)).catch(() => []))
    .filter((e) => e.kind === 'dir' && /^[a-f0-9]{64}$/.test(e.name))
    .map((e) => e.name);
  const local = `${artifactDir}/verdict.json`;
  if (await artifactExists(host, root, local)) {
    const mine = (await readArtifact(host, root, local)).sha256;
    for (const id of ids)
      if (
        (await artifactExists(host, root, `${EVIDENCE_ROOT}/${id}/verdict.json`)) &&
        (await readArtifact(host, root, `${EVIDENCE_ROOT}/${id}/verdict.json`)).sha256 === mine
      )
        return id;
    throw new SluiceError('ARTIFACT_MISSING', {
      file: local,
      message: `no evidence package under ${EVIDENCE_ROOT}/ holds this verdict; a v1 TEST verdict needs its package`,
    });
  }
  const head = (await runGit(host, root, ['rev-parse', '--verify', '-q', 'HEAD'])).stdout.trim();
  const onHead: string[] = [];
  for (const id of ids) {
    const file = `${EVIDENCE_ROOT}/${id}/manifest.json`;
    if (!(await artifactExists(host, root, file))) continue;
    const raw = parseArtifactJson((await readArtifact(host, root, file)).text, file) as { baseline_commit?: unknown };
    if (typeof raw?.baseline_commit === 'string' && head !== '' && head.startsWith(raw.baseline_commit)) onHead.push(id);
  }
  if (onHead.length > 1)
    throw artifactInvalid(
      EVIDENCE_ROOT,
      undefined,
      `${onHead.length} evidence packages were made on HEAD; name the one for ${artifactDir} in its test-report.md ("Evidence ID: ...")`,
    );
  return onHead[0] ?? null;
}
