import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { recordedRequirement, throughRetrospective } from '../helpers/recorded-requirement.ts';
import { runCliOnTerminal, scriptMissing } from '../helpers/cli-on-terminal.ts';
import type { CliRun } from '../helpers/run-cli.ts';
import { runSluice } from '../sdlc/sluice-cli.ts';
import { evidence, gitIn, makeRepo, readJson, writeFiles } from './lifecycle-fixture.ts';
import {
  codeBlockAfter,
  documentedBy,
  referenceText,
  renderReview,
  retroExample,
  reviewEvents,
  skipUnlessPrizmkit,
  testReportMd,
  testResultJson,
} from './prizmkit-reference.ts';

/**
 * Issue 25, lifecycle: sluice's own commit runs nothing the repository configures, a HEAD that replaced
 * it shows, and work committed outside sluice can be adopted by a person. Through the built CLI.
 */
const SLUG = 'feat';
const STATE = `.prizmkit/state/workflows/${SLUG}.json`;
const json = (r: CliRun) => JSON.parse(r.stdout);
const lifecycle = (root: string, ...args: string[]) => runSluice(root, ['lifecycle', ...args, '--json']);
const head = (root: string) => gitIn(root, 'rev-parse', 'HEAD').trim();
const committedFiles = (root: string, rev = 'HEAD') => gitIn(root, 'show', '--name-only', '--format=', rev).trim().split('\n').filter(Boolean);
const statusOf = async (root: string) => json(await lifecycle(root, 'status', SLUG)).requirements[0];

/** feat recorded through its retrospective, src/feat.js changed, a commit request for it. */
async function readyToCommit(): Promise<string> {
  const { root } = await recordedRequirement(SLUG, throughRetrospective(SLUG));
  await writeFiles(root, evidence.commitRequest(SLUG, ['src/feat.js']));
  return root;
}

describe("sluice's own commit runs nothing the repository configures (CLI)", { skip: scriptMissing }, () => {
  it('hooks, fsmonitor and filters an agent put in the repository do not run; the commit is exactly the reviewed file', async () => {
    const root = await readyToCommit();
    const marks = await mkdtemp(join(tmpdir(), 'sluice-marks-'));
    // Each marks that it ran (and runs once: the amend below would run post-commit again).
    const mark = (name: string) => `#!/bin/sh\n[ -e ${join(marks, name)} ] && exit 0\ntouch ${join(marks, name)}\n`;
    const hooks = join(root, '.git', 'hooks');
    await writeFiles(root, {
      // post-commit amends sluice's commit with a file nobody reviewed.
      '.git/hooks/post-commit': `${mark('post-commit')}echo unreviewed > unreviewed.txt\ngit add unreviewed.txt\ngit commit -q --amend --no-edit --no-verify\n`,
      '.git/hooks/prepare-commit-msg': `${mark('prepare-commit-msg')}echo 'Approved-by: nobody' >> "$1"\n`,
      '.git/hooks/reference-transaction': mark('reference-transaction'),
      '.git/hooks/post-index-change': mark('post-index-change'),
      '.git/fsmonitor': mark('fsmonitor'),
      '.git/evil-filter': `#!/bin/sh\ntouch ${join(marks, 'filter')}\necho 'export const x = "not what review saw";'\n`,
    });
    for (const f of ['post-commit', 'prepare-commit-msg', 'reference-transaction', 'post-index-change']) await chmod(join(hooks, f), 0o755);
    await chmod(join(root, '.git/fsmonitor'), 0o755);
    await chmod(join(root, '.git/evil-filter'), 0o755);
    gitIn(root, 'config', 'core.fsmonitor', join(root, '.git/fsmonitor'));
    gitIn(root, 'config', 'filter.evil.clean', join(root, '.git/evil-filter'));
    gitIn(root, 'config', 'filter.evil.required', 'true');
    await writeFiles(root, { '.git/info/attributes': '*.js filter=evil\n' });
    const before = head(root);
    const r = await runCliOnTerminal(root, ['lifecycle', 'record', SLUG, 'commit'], 'y\n');
    assert.equal(r.code, 0, r.stdout);
    const ran = ['post-commit', 'prepare-commit-msg', 'reference-transaction', 'post-index-change', 'fsmonitor', 'filter'].filter((m) =>
      existsSync(join(marks, m)),
    );
    assert.deepEqual(ran, [], 'nothing the repository configures ran');
    assert.equal(gitIn(root, 'rev-parse', 'HEAD~1').trim(), before);
    assert.deepEqual(committedFiles(root), ['src/feat.js']);
    assert.equal(gitIn(root, 'show', 'HEAD:src/feat.js'), 'export const x = 1;\n', 'the reviewed content, not the filter output');
    assert.doesNotMatch(gitIn(root, 'log', '-1', '--format=%B'), /Approved-by/);
    const s = await statusOf(root);
    assert.deepEqual([s.status, s.commit], ['COMMITTED', head(root)]);
    assert.equal(s.commitUnrecognized, undefined);
    // The index agrees with the commit. (Compared by blob id: a `git status` here would re-hash a racily
    // clean file through the evil filter, which is the filter's doing and depends on timestamp ticks.)
    const staged = gitIn(root, 'ls-files', '-s', '--', 'src/feat.js').split(/\s+/)[1];
    assert.equal(staged, gitIn(root, 'rev-parse', 'HEAD:src/feat.js').trim());
  });

  it('a HEAD that replaced the commit sluice made is COMMIT_UNRECOGNIZED in status (exit 1)', async () => {
    const root = await readyToCommit();
    const r = await runCliOnTerminal(root, ['lifecycle', 'record', SLUG, 'commit'], 'y\n');
    assert.equal(r.code, 0, r.stdout);
    const sluiceCommit = head(root);
    assert.equal((await statusOf(root)).commitUnrecognized, undefined);
    await writeFiles(root, { 'unreviewed.txt': 'slipped in\n' });
    gitIn(root, 'add', 'unreviewed.txt');
    gitIn(root, 'commit', '-q', '--amend', '--no-edit');
    const shown = await lifecycle(root, 'status', SLUG);
    assert.equal(shown.code, 1, shown.stdout);
    const s = json(shown).requirements[0];
    assert.equal(s.status, 'COMMITTED');
    assert.deepEqual(s.commitUnrecognized, { head: head(root), commit: sluiceCommit });
    const human = await runSluice(root, ['lifecycle', 'status']);
    assert.match(human.stdout, new RegExp(`COMMIT_UNRECOGNIZED: HEAD ${head(root).slice(0, 12)} does not contain ${sluiceCommit.slice(0, 12)}`));
    assert.doesNotMatch(human.stdout, /verified\s*$/);
    // recover says the same, and keeps the requirement's own commit.
    const recovered = await lifecycle(root, 'recover', SLUG);
    assert.equal(recovered.code, 1, recovered.stdout);
    assert.deepEqual([json(recovered).status, json(recovered).commit, json(recovered).unrecognizedCommit], ['COMMITTED', sluiceCommit, head(root)]);
  });
});

describe('work committed outside sluice is adopted by a person (CLI)', { skip: scriptMissing }, () => {
  it('committed by hand after review, test and retrospective: record commit names adopt-commit; the person adopts it at a terminal', async () => {
    const root = await readyToCommit();
    gitIn(root, 'add', '-A');
    gitIn(root, 'commit', '-q', '-m', 'feat: by hand');
    const stuck = await lifecycle(root, 'record', SLUG, 'commit');
    assert.equal(stuck.code, 2, stuck.stdout);
    assert.match(json(stuck).error.message, /src\/feat\.js has no uncommitted change.*sluice lifecycle adopt-commit feat COMMIT/);
    // Not from a script: adopting is a person's judgement, no grant applies.
    const headless = await lifecycle(root, 'adopt-commit', SLUG, 'HEAD');
    assert.equal(headless.code, 1, headless.stdout);
    assert.equal(json(headless).error.code, 'COMMIT_NOT_AUTHORIZED');
    const adopted = await runCliOnTerminal(root, ['lifecycle', 'adopt-commit', SLUG, 'HEAD'], 'y\n');
    assert.equal(adopted.code, 0, adopted.stdout);
    assert.match(adopted.stdout, /Record [0-9a-f]{12} as the commit of feat\?/);
    const s = await statusOf(root);
    assert.deepEqual([s.status, s.commit], ['COMMITTED', head(root)]);
    assert.equal((await readJson(root, STATE)).commit.authorized_by.source, 'adopted');
  });

  it('a commit that carries a file review never saw, or misses the reviewed change, is refused and nothing is recorded', async () => {
    const root = await readyToCommit();
    await writeFiles(root, { 'src/extra.js': 'export const sneaky = true;\n' });
    gitIn(root, 'add', '-A');
    gitIn(root, 'commit', '-q', '-m', 'feat: with more');
    const extra = await runCliOnTerminal(root, ['lifecycle', 'adopt-commit', SLUG, 'HEAD'], 'y\n');
    assert.equal(extra.code, 1, extra.stdout);
    assert.match(
      extra.stdout,
      /COMMIT_UNRECOGNIZED: commit [0-9a-f]{12} is not adopted as feat's: .*src\/extra\.js is not what code-review and test and retrospective saw/,
    );
    const other = await readyToCommit();
    const wrong = await runCliOnTerminal(other, ['lifecycle', 'adopt-commit', SLUG, 'HEAD'], 'y\n');
    assert.equal(wrong.code, 1, wrong.stdout);
    assert.match(wrong.stdout, /src\/feat\.js \(not in it\) is not what code-review and test and retrospective saw/);
    for (const r of [root, other]) assert.equal((await statusOf(r)).status, 'RETRO_COMPLETE');
  });

  it('PrizmKit committed it (no trailer) and its state says COMMITTED: sluice resumes at the commit and the person adopts it', {
    skip: skipUnlessPrizmkit,
  }, async () => {
    const root = await makeRepo({ 'src/calc.js': 'export const add = (a, b) => a - b;\n' });
    const dir = '.prizmkit/specs/calc';
    await writeFiles(root, {
      'src/calc.js': 'export const add = (a, b) => a + b;\n',
      [`${dir}/spec.md`]: '# calc\n\nadd adds.\n',
      [`${dir}/plan.md`]: '# Plan\n\n- [x] [T-001] fix add\n',
      [`${dir}/test-result.json`]: JSON.stringify(testResultJson('v4', 'TEST_PASS')),
      [`${dir}/test-report.md`]: testReportMd('v4', 'TEST_PASS'),
      [`${dir}/retrospective-result.json`]: JSON.stringify(retroExample('v4')),
      ...documentedBy(retroExample('v4')),
    });
    renderReview('v4', join(root, dir, 'review-report.md'), reviewEvents('v4', 'PASS'));
    gitIn(root, 'add', '-A');
    gitIn(root, 'commit', '-q', '-m', 'fix(calc): add adds');
    const done = JSON.parse(codeBlockAfter(referenceText('v4', 'prizmkit-workflow/references/workflow-state-protocol.md'), '## Schema', 'json'));
    const claimed = {
      ...done,
      artifact_dir: dir,
      stage: 'committer',
      status: 'completed',
      stage_result: 'COMMITTED',
      completed_stages: ['plan', 'implement', 'code-review', 'test', 'retrospective', 'committer'],
      next_stage: null,
      resume_from: null,
    };
    await writeFiles(root, { '.prizmkit/state/workflows/calc.json': JSON.stringify(claimed) });
    const r = json(await lifecycle(root, 'recover', 'calc', '--orchestrator', claimed.orchestrator));
    assert.deepEqual([r.status, r.nextStage], ['RETRO_COMPLETE', 'commit']);
    assert.match(r.steps[5].finding, /adopt-commit calc COMMIT/);
    const adopted = await runCliOnTerminal(root, ['lifecycle', 'adopt-commit', 'calc', 'HEAD', '--orchestrator', claimed.orchestrator], 'y\n');
    assert.equal(adopted.code, 0, adopted.stdout);
    const s = json(await lifecycle(root, 'status', 'calc')).requirements[0];
    assert.deepEqual([s.status, s.commit], ['COMMITTED', head(root)]);
  });
});
