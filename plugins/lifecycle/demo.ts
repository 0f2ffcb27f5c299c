import { join, relative } from 'pathe';
import type { Host, JobQueue, Kernel } from '../../core/index.ts';
import { createLifecycleContext } from './lifecycle-context.ts';
import { readGitCommit } from './readers/git-commit-reader.ts';
import { runLifecycle, type RequirementOutcome, type RunSummary } from './runner/run-lifecycle.ts';
import { startRequirement } from './start-requirement.ts';
import { workflowStatePath } from './state/workflow-state-file.ts';
import { git, runGit } from './workspace/run-git.ts';

/** The three demo requirements: one straight through, one review-fix loop, one test-infrastructure repair. */
export const DEMO_REQUIREMENTS = [
  { slug: 'greeting', goal: 'greeting(name) returns "Hello, <name>!" and defaults to "world".' },
  { slug: 'slugify', goal: 'slugify(text) turns a title into a URL slug: lower case, accents folded, words joined by dashes.' },
  { slug: 'csv-export', goal: 'toCsv(rows) writes RFC 4180 CSV: cells with commas, quotes or newlines are quoted.' },
] as const;

/** The bundled delegate script that plays every stage of the demo requirements. */
export const demoScriptPath = (host: Host) => host.asset('plugins', 'lifecycle', 'demo', 'demo-script.yaml');

export interface LifecycleDemoSummary {
  projectDir: string;
  requirements: {
    slug: string;
    outcome: RequirementOutcome['outcome'];
    status: string | null;
    stages: string[];
    commit?: string;
    statePath: string;
    artifactDir: string;
  }[];
  commits: { sha: string; subject: string; paths: string[] }[];
  durationMs: number;
}

/**
 * The lifecycle part of `sluice demo`: makes `projectDir` a git repository (if it is not one), commits
 * its ignore file, starts three requirements and runs them through every stage in parallel with the `script` backend and the
 * bundled demo script; sluice, as the embedding host, authorizes the demo's three commits. `slugify` goes through a NEEDS_FIXES review, `csv-export` through a
 * test-infrastructure repair that skips the review; all three end COMMITTED.
 */
export interface LifecycleDemoOptions {
  say?(line: string): void;
  signal?: AbortSignal;
  /**
   * Run each requirement as a durable job on this queue (`sluice demo --queue`): the project gets a bare
   * repository beside it as `origin`, workers clone it and push each commit to `sluice/<slug>`.
   */
  workers?: { dispatcher: JobQueue; grantKeyFile?: string };
}

export async function runLifecycleDemo(kernel: Kernel, projectDir: string = kernel.projectRoot, o: LifecycleDemoOptions = {}): Promise<LifecycleDemoSummary> {
  const started = performance.now();
  const { host } = kernel;
  const say = o.say ?? (() => {});
  await host.mkdir(projectDir);
  await prepareRepository(kernel, projectDir);
  const lc = createLifecycleContext(kernel, projectDir);
  for (const r of DEMO_REQUIREMENTS) await startRequirement(lc, r.slug, { goal: r.goal });
  say(`lifecycle: ${DEMO_REQUIREMENTS.length} requirements in ${projectDir}`);
  const slugs = DEMO_REQUIREMENTS.map((r) => r.slug);
  // sluice itself is the trusted host here: it grants the demo's own requirements, nothing in the project does.
  const hostGrant = { mode: 'sluice-demo', owner: 'sluice demo', local_commit_authorized: true as const, requirements: slugs };
  const run = { slugs, backend: 'script', extra: { script: demoScriptPath(host) }, signal: o.signal };
  let summary: RunSummary;
  if (o.workers) {
    // Workers verify the grants they get with the user's key (there is no flag to name another): make one if needed.
    const { createGrantKeyIfMissing, defaultGrantKeyFile } = await import('./commit/signed-grant.ts');
    const keyFile = o.workers.grantKeyFile ?? defaultGrantKeyFile(kernel.host);
    if (await createGrantKeyIfMissing(kernel.host, keyFile)) say(`lifecycle: made a commit-grant key at ${keyFile} (mode 0600) to sign the workers' grants`);
    const remote = await publishRepository(kernel, projectDir);
    say(`lifecycle: one job per requirement for the workers, cloning ${remote}`);
    const { runLifecycleOnWorkers } = await import('./remote/run-on-workers.ts');
    summary = await runLifecycleOnWorkers(lc, {
      ...run,
      dispatcher: o.workers.dispatcher,
      authorize: { hostGrant, grantKeyFile: keyFile },
    });
    // The workers pushed the commits to sluice/<slug>; fetch them so the project shows them too.
    await git(host, projectDir, ['fetch', '-q', 'origin', '+refs/heads/sluice/*:refs/remotes/origin/sluice/*']);
  } else summary = await runLifecycle(lc, { ...run, authorize: { hostGrant } });
  const commits: LifecycleDemoSummary['commits'] = [];
  for (const r of summary.requirements) {
    if (!r.commit) continue;
    const c = await readGitCommit(host, projectDir, r.commit);
    commits.push({ sha: c.sha, subject: c.message.split('\n')[0], paths: c.paths });
    say(`  ${r.slug}: ${r.stages.map((s) => s.stage).join(' → ')} → ${c.sha.slice(0, 12)}`);
  }
  return {
    projectDir,
    requirements: summary.requirements.map((r) => ({
      slug: r.slug,
      outcome: r.outcome,
      status: r.status,
      stages: r.stages.map((s) => s.stage),
      ...(r.commit ? { commit: r.commit } : {}),
      statePath: relative(projectDir, workflowStatePath(projectDir, r.slug)),
      artifactDir: `.prizmkit/specs/${r.slug}`,
    })),
    commits,
    durationMs: Math.round(performance.now() - started),
  };
}

/** A bare repository beside the project, as its `origin`: what workers on other machines would clone. */
async function publishRepository(kernel: Kernel, dir: string): Promise<string> {
  const remote = `${dir}.git`;
  await git(kernel.host, dir, ['clone', '-q', '--bare', dir, remote]);
  await git(kernel.host, dir, ['remote', 'add', 'origin', remote]);
  return remote;
}

const DEMO_IDENTITY = { name: 'sluice demo', email: 'demo@sluice.invalid' };

/**
 * What the demo's own worker processes add to their git environment. The demo's identity needs no
 * help: it is the project's, and reaches the workers' clones with each job as any orchestrator's does.
 * The project's `commit.gpgsign=false` does not travel, and a user's global `commit.gpgsign` would
 * ask the demo for a key it does not have.
 */
export const DEMO_WORKER_GIT_ENV: Readonly<Record<string, string>> = {
  GIT_CONFIG_COUNT: '1',
  GIT_CONFIG_KEY_0: 'commit.gpgsign',
  GIT_CONFIG_VALUE_0: 'false',
};

/** git init (when needed), a local identity and a committed ignore file. */
async function prepareRepository(kernel: Kernel, dir: string): Promise<void> {
  const { host } = kernel;
  if ((await runGit(host, dir, ['rev-parse', '--show-toplevel'])).stdout.trim() !== dir) await git(host, dir, ['init', '-q']);
  await git(host, dir, ['config', 'user.name', DEMO_IDENTITY.name]);
  await git(host, dir, ['config', 'user.email', DEMO_IDENTITY.email]);
  await git(host, dir, ['config', 'commit.gpgsign', 'false']);
  const ignore = join(dir, '.gitignore');
  const ignored = (await host.stat(ignore)) ? await host.readText(ignore) : '';
  const missing = ['.sluice/', '.prizmkit/state/'].filter((l) => !ignored.split('\n').includes(l));
  if (missing.length) await host.writeAtomic(ignore, `${ignored}${ignored && !ignored.endsWith('\n') ? '\n' : ''}${missing.join('\n')}\n`);
  await git(host, dir, ['add', '--', '.gitignore']);
  await git(host, dir, ['commit', '-q', '--allow-empty', '-m', 'chore: sluice demo project', '--', '.gitignore']);
}
