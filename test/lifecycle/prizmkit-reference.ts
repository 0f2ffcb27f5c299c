import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * PrizmKit's own scripts and templates (MIT), read and run from `../shared/reference/prizmkit/` next
 * to the repository (or next to the worktrees folder). Tests that need them skip, saying why, when
 * they or python3 are absent. Nothing of theirs is copied into the project: what they produce is.
 */
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const candidates = [resolve(repoRoot, '../shared/reference/prizmkit'), resolve(repoRoot, '../../shared/reference/prizmkit')];
export const PRIZMKIT = candidates.find((c) => existsSync(join(c, 'v1'))) ?? null;
export const SEED = PRIZMKIT ? resolve(PRIZMKIT, '../../seeds/prizmkit-workflow-state-protocol.md') : null;
const python = spawnSync('python3', ['--version']).status === 0;

/** A `skip` option for node:test: false when the reference and python3 are here, else the reason. */
export const skipUnlessPrizmkit: string | false = !PRIZMKIT
  ? `PrizmKit reference not found (looked in ${candidates.join(', ')})`
  : !python
    ? 'python3 is not installed'
    : false;

export const VERSIONS = ['v1', 'v2', 'v3', 'v4'] as const;
export type Version = (typeof VERSIONS)[number];

export const referenceText = (version: Version, rel: string) => readFileSync(join(PRIZMKIT!, version, rel), 'utf8');

/** The first fenced block of `lang` after `marker` in a reference document. */
export function codeBlockAfter(text: string, marker: string, lang: string): string {
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`marker ${JSON.stringify(marker)} not found`);
  const m = new RegExp('```' + lang + '\\n([\\s\\S]*?)\\n```').exec(text.slice(at));
  if (!m) throw new Error(`no ${lang} block after ${JSON.stringify(marker)}`);
  return m[1];
}

/** The retrospective skill's own `retrospective-result.json` example (v2: DOCS_UPDATED with the verdicts; v4: its seven keys). */
export const retroExample = (version: 'v2' | 'v3' | 'v4') =>
  JSON.parse(
    codeBlockAfter(
      referenceText(version, 'prizmkit-retrospective/SKILL.md'),
      version === 'v4' ? 'exactly these seven keys' : 'retrospective-result.json',
      'json',
    ),
  );

/** The documents a retrospective result names, so an example's DOCS_UPDATED points at files that exist. */
export const documentedBy = (retro: { documentation_paths?: string[]; docs_updated?: string[] }): Record<string, string> =>
  Object.fromEntries([...(retro.documentation_paths ?? []), ...(retro.docs_updated ?? [])].map((p) => [p, '# documented\n']));

/** The workflow state example of the seed protocol (its `## Schema`: TEST_PASS, next retrospective), for `artifactDir`. */
export function seedExample(artifactDir: string): Record<string, unknown> {
  const text = readFileSync(SEED!, 'utf8')
    .split('\n')
    .map((l) => l.replace(/^-/, ''))
    .join('\n');
  return { ...JSON.parse(codeBlockAfter(text, '## Schema', 'json')), artifact_dir: artifactDir };
}

/**
 * Runs `render_review_report.py` of a version: init, then each event (append) or the final result
 * (finalize), through the script's own functions in one python process.
 */
export function renderReview(version: Version, report: string, steps: ({ finalize: Record<string, unknown> } | Record<string, unknown>)[]): void {
  const dir = join(PRIZMKIT!, version, 'prizmkit-code-review/scripts');
  const code = [
    'import json, sys',
    'from pathlib import Path',
    'sys.path.insert(0, sys.argv[1])',
    'import render_review_report as r',
    'report = Path(sys.argv[2])',
    'r.initialize_report(report)',
    'for step in json.loads(sys.stdin.read()):',
    '    r.append_final_result(report, step["finalize"]) if "finalize" in step else r.append_event(report, step)',
  ].join('\n');
  execFileSync('python3', ['-c', code, dir, report], { input: JSON.stringify(steps), encoding: 'utf8' });
}

/** The events a review of `rounds` rounds writes in this version (scope in v4, an independent review in v2+). */
export function reviewEvents(version: Version, verdict: 'PASS' | 'NEEDS_FIXES', rounds = 2): Record<string, unknown>[] {
  const events: Record<string, unknown>[] = [];
  if (version === 'v4') events.push({ event: 'scope-classification', in_scope_paths: ['src/app.js'], excluded_paths: ['.prizmkit/specs/demo/plan.md'] });
  for (let round = 1; round <= rounds; round++) {
    const last = round === rounds;
    const finding = last ? (verdict === 'PASS' ? 0 : 1) : 1;
    events.push({
      event: 'main-review-round',
      round,
      findings: finding,
      accepted: finding,
      rejected: 0,
      unresolved: 0,
      next: last ? 'Finalize' : 'Repair accepted finding',
    });
    if (!last) events.push({ event: 'repair-verification', fixed_findings: 1, verification: 'targeted test passed', next: `Main Review Round ${round + 1}` });
  }
  if (version !== 'v1') {
    const independent: Record<string, unknown> = {
      event: 'independent-review-round',
      response: 1,
      result: 'NO_CORRECTION_NEEDED',
      corrections: 0,
      accepted: 0,
      rejected: 0,
      unresolved: 0,
      next: 'Final verification',
    };
    if (version === 'v4')
      Object.assign(independent, { capability_basis: 'read-only reviewer verified', continuation_mode: 'native', reviewer_replacements: 0 });
    events.push(independent);
  }
  events.push({ event: 'final-verification', status: 'COMPLETED', evidence: 'npm test passed' });
  const accepted = rounds - 1 + (verdict === 'PASS' ? 0 : 1);
  events.push({
    finalize: {
      verdict,
      main_review_rounds: rounds,
      accepted_findings: accepted,
      fixed_findings: rounds - 1,
      rejected_findings: 0,
      unresolved_findings: 0,
      summary: verdict === 'PASS' ? 'Review converged.' : 'One accepted finding is not fixed.',
    },
  });
  return events;
}

/** `test-result.json` as the version's template shows it, with this result. */
export function testResultJson(
  version: Exclude<Version, 'v1'>,
  result: string,
  o: { productionChanged?: boolean; unresolved?: string[] } = {},
): Record<string, unknown> {
  const json = JSON.parse(codeBlockAfter(referenceText(version, 'prizmkit-test/references/test-report-template.md'), '## Terminal Machine Projection', 'json'));
  const changed = o.productionChanged ?? false;
  return {
    ...json,
    result,
    production_changed: changed,
    unresolved_items: o.unresolved ?? [],
    ...('review_required' in json ? { review_required: changed, review_scope: changed ? 'delta' : null } : {}),
  };
}

/** `test-report.md` from the version's template, its machine-read lines filled in. */
export function testReportMd(version: Exclude<Version, 'v1'>, result: string, o: { productionChanged?: boolean; unresolved?: string[] } = {}): string {
  const template = codeBlockAfter(referenceText(version, 'prizmkit-test/references/test-report-template.md'), '```markdown', 'markdown');
  const items = o.unresolved?.length ? o.unresolved.join('; ') : 'none';
  return template
    .replace(/^- Result: .*$/m, `- Result: ${result}`)
    .replace(/^- Production changed during test: .*$/m, `- Production changed during test: ${o.productionChanged ? 'yes' : 'no'}`)
    .replace(/^- Testing-domain unresolved items: .*$/m, `- Testing-domain unresolved items: ${items}`)
    .replace(/^- <none, or every known correction.*$/m, `- ${items}`);
}

/** PrizmKit's own canonical hash (validate_test_evidence.canonical_sha256) of a JSON value. */
export function prizmkitCanonicalSha256(value: unknown): string {
  const dir = join(PRIZMKIT!, 'v1/prizmkit-test/scripts');
  const code = 'import json,sys; sys.path.insert(0, sys.argv[1]); import validate_test_evidence as v; print(v.canonical_sha256(json.loads(sys.stdin.read())))';
  return execFileSync('python3', ['-c', code, dir], { input: JSON.stringify(value), encoding: 'utf8' }).trim();
}

/**
 * A v1 lightweight evidence package for `changed` made by PrizmKit's builder and attested by its
 * validator (`--attest`), through build-v1-evidence.py. Returns the evidence id.
 */
export function buildV1Evidence(project: string, changed: string): string {
  const script = fileURLToPath(new URL('./build-v1-evidence.py', import.meta.url));
  return execFileSync('python3', [script, join(PRIZMKIT!, 'v1/prizmkit-test'), project, changed], { encoding: 'utf8' }).trim();
}

/** PrizmKit's own verdict on a package: null when it passes, else its first error line. */
export function prizmkitValidates(project: string, id: string): string | null {
  const r = spawnSync(
    'python3',
    [
      join(PRIZMKIT!, 'v1/prizmkit-test/scripts/validate_test_evidence.py'),
      '--evidence-dir',
      join(project, '.prizmkit/test/evidence', id),
      '--project-root',
      project,
    ],
    { encoding: 'utf8' },
  );
  return r.status === 0 ? null : (r.stdout.split('\n').find((l) => l.startsWith('- ')) ?? r.stdout);
}

/**
 * A minimal v1 evidence package for the workspace's current `git diff HEAD`, its identities and payload
 * hash computed by PrizmKit's own canonical hashing (a TEST_FAIL needs this: the builder cannot be made
 * to fail here). With `reportIn`, the derived test-report.md in that artifact folder names it.
 */
export function hashedV1Package(root: string, verdict: 'TEST_PASS' | 'TEST_FAIL', changed: string, reportIn?: string): { id: string; dir: string } {
  const sha = (s: string) => createHash('sha256').update(s).digest('hex');
  const patch = execFileSync('git', ['diff', 'HEAD'], { cwd: root, encoding: 'utf8' });
  const head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  const scope = { changed_files: [changed] };
  const inputs = { baseline_commit: head, working_diff_sha256: sha(patch), scope_sha256: prizmkitCanonicalSha256(scope) };
  const id = prizmkitCanonicalSha256(inputs);
  const record = {
    verdict,
    testing_domain_only: true,
    authorizes_commit_or_release: false,
    real_environment_validated: false,
    repairs_business_defects: false,
    code_evidence_replayable: true,
    blockers: [],
    reproduced_failures: verdict === 'TEST_FAIL' ? ['amount-boundary-negative'] : [],
  };
  const files: Record<string, string> = {
    'source-change.patch': patch,
    'scope.json': JSON.stringify(scope),
    'raw/execution-001.stdout': 'ok\n',
    'verdict.json': JSON.stringify(record, null, 2),
  };
  const payload = Object.entries(files)
    .filter(([p]) => p !== 'verdict.json')
    .map(([path, text]) => ({ path, sha256: sha(text) }))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
  files['validation.json'] = JSON.stringify({
    validator: 'validate_test_evidence.py',
    validator_sha256: 'a'.repeat(64),
    payload_sha256: prizmkitCanonicalSha256(payload),
    result: 'passed',
    verdict,
    semantics: 'integrity-and-protocol-validation-not-hostile-producer-proof',
    replay_receipt_ids: [],
  });
  files['manifest.json'] = JSON.stringify(
    {
      protocol_version: '1.0',
      evidence_id: id,
      evidence_id_inputs: inputs,
      baseline_commit: head,
      working_diff_sha256: inputs.working_diff_sha256,
      files: Object.entries(files).map(([path, text]) => ({ path, sha256: sha(text), produced_by: 'EVIDENCE_PACKAGE' })),
      final_verdict: verdict,
    },
    null,
    2,
  );
  const dir = `.prizmkit/test/evidence/${id}`;
  const out: Record<string, string> = { ...Object.fromEntries(Object.entries(files).map(([p, t]) => [`${dir}/${p}`, t])) };
  if (reportIn) out[`${reportIn}/test-report.md`] = `# Test Evidence Report\n\n## Evidence\n- Evidence ID: ${id}\n- Verdict: ${verdict}\n`;
  for (const [path, text] of Object.entries(out)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return { id, dir };
}
