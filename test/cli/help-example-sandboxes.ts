import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { copyFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { queueKeyFrom } from '../../core/index.ts';
import { evidence, writeFiles } from '../lifecycle/lifecycle-fixture.ts';
import { sdlcKernel, walkTo, writeCurrentArtifacts } from '../sdlc/sdlc-fixture.ts';
import { spawnReaped } from '../helpers/reap-children.ts';
import { sshKeygenMissing } from '../helpers/ssh-keys.ts';
import { runProcess } from '../helpers/run-cli.ts';

/**
 * A prepared place for each command's --help examples: an SDLC project, a git repository with a
 * requirement at the stage the example records, skills and a finished tune run, a project with a
 * delegate command to trust, fake `claude`/`agy`/`codex` on PATH, and HOME/TMPDIR of its own.
 * Each recipe returns what the example must do there: its exit code(s), and text its output shows.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
export const FAKE_CLIS = join(root, 'test', 'fixtures', 'bin');

export interface Sandbox {
  /** The project folder the example runs in (its parent holds home/ and tmp/). */
  dir: string;
  env: Record<string, string>;
  example: string;
}

export interface Expectation {
  /** Exit codes that mean the example did its job (default 0). */
  codes?: number[];
  /** What the output (stdout + stderr) shows. */
  output?: RegExp;
  /** The answer typed on a terminal: the example asks a person, so it runs under `script` (a pseudo-terminal). */
  tty?: string;
  /** The example as run, when it names a place outside the sandbox (a queue host, a system folder) the sandbox maps to its own. */
  line?: string;
  /** A long-running example (a worker): stopped with SIGTERM once its output matches this. */
  stopWhen?: RegExp;
  /** Why the example cannot run here (a missing program); it is reported, not failed. */
  skip?: string;
}

export type Run = (
  command: string,
  dir: string,
  env: Record<string, string>,
  input?: string,
) => Promise<{ code: number | null; stdout: string; stderr: string }>;

/** Runs `sh -c COMMAND` (a child reaped at exit). */
export const runShell: Run = (command, dir, env, input) => runProcess('sh', ['-c', command], { cwd: dir, env, input });

async function must(command: string, s: Sandbox, input?: string, codes = [0]): Promise<void> {
  const r = await runShell(command, s.dir, s.env, input);
  assert.ok(codes.includes(r.code ?? -1), `preparing "${s.example}": ${command} exited ${r.code}\n${r.stdout}${r.stderr}`);
}

const git = (dir: string, ...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' });

/** A git repository with one commit and sluice's runtime folders ignored. */
async function gitRepo(dir: string): Promise<void> {
  git(dir, 'init', '-q');
  git(dir, 'config', 'user.name', 'Example');
  git(dir, 'config', 'user.email', 'example@example.invalid');
  git(dir, 'config', 'commit.gpgsign', 'false');
  await writeFiles(dir, { 'README.md': '# example\n\nParses durations.\n', '.gitignore': '.sluice/\n.prizmkit/state/\n' });
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'init');
}

// ---------------------------------------------------------------- SDLC (init, gate, next, ...) --

/** The SDLC project: Discovery's artifacts written (next's example ids are real), siblings for --compare/--repo. */
async function sdlcProject(command: string, s: Sandbox): Promise<Expectation> {
  const verdict = { codes: [0, 1] };
  if (command === 'init' && !s.example.includes('--force')) return verdict;
  const kernel = await sdlcKernel(s.dir);
  const { runCommand } = await import('../../plugins/sdlc/demo/run-command.ts');
  assert.equal((await runCommand(kernel, 'init', [], { name: 'Example', type: 'service' })).exitCode, 0);
  if (command === 'reenter') await walkTo(kernel, 'build');
  await writeCurrentArtifacts(kernel);
  const parent = join(s.dir, '..');
  if (command === 'handoff') {
    await mkdir(join(s.dir, '.sdlc/artifacts/build'), { recursive: true });
    await copyFile(join(root, 'test/fixtures/sdlc-views/session-handoff.json'), join(s.dir, '.sdlc/artifacts/build/session-handoff.json'));
  }
  if (command === 'audit') {
    await mkdir(join(parent, 'other-service'));
    assert.equal((await runCommand(await sdlcKernel(join(parent, 'other-service')), 'init', [], {})).exitCode, 0);
  }
  if (command === 'specs') {
    for (const repo of [s.dir, join(parent, 'service')])
      await writeFiles(repo, { 'specs/0001-login.md': '---\nspec: "0001"\nname: Login\nstatus: in-flight\nrisk: HIGH\n---\n# Login\n' });
  }
  if (command === 'profile validate') {
    const starter = await readFile(join(root, 'plugins/sdlc/packs/starter/profile.yaml'), 'utf8');
    await writeFiles(s.dir, { 'packs/acme/profile.yaml': starter, 'profile.yaml': starter });
  }
  if (command === 'waivers accept') {
    await writeFiles(s.dir, {
      '.sdlc/artifacts/00-discovery/constraints.md': '# Constraints\n\nWAIVED: Dana Whitfield — budget is set by the client board in week 3\n\nBudget: TBD\n',
    });
    if (s.example.includes('--sign') && sshKeygenMissing) return { skip: sshKeygenMissing };
    if (s.example.includes('--sign')) {
      // The person's own key at the example's path, listed as an allowed signer.
      await mkdir(join(s.env.HOME, '.ssh'), { recursive: true, mode: 0o700 });
      const key = join(s.env.HOME, '.ssh', 'id_ed25519');
      execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'ana@example.com', '-f', key], { stdio: 'pipe' });
      const [type, body] = (await readFile(`${key}.pub`, 'utf8')).trim().split(/\s+/);
      await writeFile(join(s.dir, '.sdlc', 'allowed_signers'), `ana@example.com ${type} ${body}\n`);
    }
    return { output: /Accepted constraints\.md:3|"accepted": \[\s*\{/ };
  }
  return verdict;
}

// ------------------------------------------------------------------------------ lifecycle ------

const SLUG = 'parse-durations';

/** Records `stages` of SLUG with the evidence each would leave (as a person or orchestrator would). */
async function recordStages(s: Sandbox, stages: string[], orchestrator?: string): Promise<void> {
  const by = orchestrator ? ` --orchestrator ${orchestrator}` : '';
  const files: Record<string, Record<string, string>> = {
    plan: evidence.plan(SLUG, 1),
    implement: evidence.implement(SLUG, 'export const parseDuration = (text) => text;\n', 1),
    'code-review': evidence.review(SLUG, 'PASS'),
    test: evidence.test(SLUG, 'TEST_BLOCKED'),
  };
  for (const stage of stages) {
    await writeFiles(s.dir, files[stage]!);
    // A blocked test stage that reaches the recovery limit blocks the workflow: exit 1.
    await must(`sluice lifecycle record ${SLUG} ${stage}${by}`, s, undefined, stage === 'test' ? [0, 1] : [0]);
  }
}

async function lifecycle(command: string, s: Sandbox): Promise<Expectation> {
  await gitRepo(s.dir);
  const start = (extra = '') => must(`sluice lifecycle start ${SLUG} --goal "accept 1h30m style timeouts"${extra}`, s);
  if (command === 'lifecycle start') return { output: /fix-123|parse-durations/ };
  const orchestrator = s.example.includes('--orchestrator prizmkit-workflow') ? 'prizmkit-workflow' : undefined;
  await start(orchestrator ? ` --orchestrator ${orchestrator}` : '');
  if (command === 'lifecycle status' || command === 'lifecycle next') return { output: /parse-durations/ };
  if (command === 'lifecycle recover') {
    await recordStages(s, ['plan']);
    return { output: /Recovery of parse-durations/ };
  }
  if (command === 'lifecycle run') {
    if (s.example.includes('--script demo.yaml')) {
      await must('sluice lifecycle start fix-123 --goal "reject negative timeouts"', s);
      await copyFile(join(root, 'plugins/lifecycle/demo/demo-script.yaml'), join(s.dir, 'demo.yaml'));
      // Every stage runs; the commit then waits for a person's (or a trusted host's) authorization.
      return { codes: [1], output: /"status": "COMMIT_PENDING"[\s\S]*"status": "COMMIT_PENDING"/ };
    }
    // The fake claude answers but writes no plan: the run reports the requirement blocked on its evidence.
    return { codes: [1], output: /parse-durations blocked .*plan\.md/ };
  }
  if (command === 'lifecycle adopt-commit') {
    // Reviewed, tested and retrospected by sluice, then committed by a person with git: the person adopts it.
    await recordStages(s, ['plan', 'implement', 'code-review']);
    for (const [files, stage] of [
      [evidence.test(SLUG, 'TEST_PASS'), 'test'],
      [evidence.retrospective(SLUG), 'retrospective'],
    ] as const) {
      await writeFiles(s.dir, files);
      await must(`sluice lifecycle record ${SLUG} ${stage}`, s);
    }
    git(s.dir, 'add', '-A');
    git(s.dir, 'commit', '-q', '-m', 'feat: parse durations (committed by hand)');
    return { tty: 'y\n', output: /COMMITTED/ };
  }
  // lifecycle record: the stages before the one the example records.
  const stage = /record \S+ (\S+)/.exec(s.example)![1]!;
  if (stage === 'code-review') {
    await recordStages(s, ['plan', 'implement']);
    await writeFiles(s.dir, evidence.review(SLUG, 'PASS'));
    return { output: /REVIEW_PASS/ };
  }
  if (stage === 'test') {
    await recordStages(s, ['plan', 'implement', 'code-review'], orchestrator);
    await writeFiles(s.dir, evidence.test(SLUG, 'TEST_PASS'));
    return { output: /TEST_PASS/ };
  }
  // unblock: a test stage blocked until the environment recovery limit blocks the workflow.
  await recordStages(s, ['plan', 'implement', 'code-review', 'test', 'test', 'test']);
  return { tty: 'y\n', output: /transition unblock/ };
}

// ---------------------------------------------------------------------------- skill tune ------

const skill = (id: string) => `---\nname: ${id}\ndescription: ${id} step of the example\n---\n# ${id}\n\nDo the ${id} step of the scenario.\n`;
/** What the fake agy answers as the evaluator: every dimension at 90. */
export const EVALUATION = JSON.stringify({
  dimensions: { clarity: 90, completeness: 90, correctness: 90, effectiveness: 90, efficiency: 90 },
  strengths: ['clear'],
  weaknesses: ['terse'],
  suggestions: [{ priority: 'low', target: 'SKILL.md', change: 'add an example' }],
});

/** Skills to tune, and the run folder the example names (if any): a finished tune of commit-message, moved to that name. */
async function tuneProject(s: Sandbox): Promise<string | undefined> {
  s.env.FAKE_AGY_ANSWER = EVALUATION;
  for (const id of ['commit-message', 'plan', 'build', 'review']) await writeFiles(s.dir, { [`.claude/skills/${id}/SKILL.md`]: skill(id) });
  const run = /\.sluice\/runs\/(skill-tune-\d{8}-\d{6})/.exec(s.example)?.[1];
  if (!run) return undefined;
  await must('sluice tune commit-message --scenario "Write a commit message" -y --run-dir .sluice/runs/made', s);
  const { readdir } = await import('node:fs/promises');
  const [made] = await readdir(join(s.dir, '.sluice/runs/made'));
  await rename(join(s.dir, '.sluice/runs/made', made!), join(s.dir, '.sluice/runs', run));
  return run;
}

async function tune(_command: string, s: Sandbox): Promise<Expectation> {
  if (await tuneProject(s)) return { output: s.example.includes('--restore') ? /Restored 1 skill/ : /already finished/ };
  return { output: /score 90 reached the threshold/ };
}

async function tuneStatus(_command: string, s: Sandbox): Promise<Expectation> {
  return (await tuneProject(s)) ? { output: /"status": "terminated"/ } : { output: /no tuning runs under \.sluice\/runs/ };
}

// ------------------------------------------------------------------ delegate, trust, guard ------

async function delegate(_command: string, s: Sandbox): Promise<Expectation> {
  await gitRepo(s.dir);
  await writeFile(join(s.dir, 'README.md'), '# example\n\nParses durations such as 1h30m.\n'); // `git diff` shows a change
  await writeFile(
    join(s.dir, 'demo.yaml'),
    stringify({
      version: 1,
      rules: [
        { match: 'login', mode: 'write', reply: { text: 'Planned the login change.', files: { 'docs/login-plan.md': '# Login plan\n\n1. Add the form.\n' } } },
      ],
    }),
  );
  return { output: s.example.includes('--reset') ? /./ : /fake claude answer|fake codex answer|Planned the login change/ };
}

async function trust(_command: string, s: Sandbox): Promise<Expectation> {
  await writeFile(join(s.dir, 'sluice.config.yaml'), 'delegates:\n  shell:\n    command: "echo from the example"\n');
  if (s.example.endsWith('--show')) return { output: /delegates\.shell: echo from the example/ };
  if (s.example.endsWith('--revoke')) {
    await must("script -qec 'sluice trust' /dev/null", s, 'y\n');
    return { output: /trust revoked/ };
  }
  return { tty: 'y\n', output: /trusted; recorded in/ };
}

/** `sluice anchor`: a project sluice set up here has its journal anchored already; `--show` lists it. */
async function anchor(_command: string, s: Sandbox): Promise<Expectation> {
  await must('sluice init --profile starter', s);
  return { output: /SDLC history \(\.sdlc\/journal\.jsonl\): 1 entries, verified here/ };
}

async function hooks(_command: string, s: Sandbox): Promise<Expectation> {
  await gitRepo(s.dir);
  if (s.example.includes('--remove')) await must('sluice hooks install claude', s);
  if (s.example.includes('| sluice guard')) return { output: /"permissionDecision": ?"deny"/ };
  return { output: /settings\.json/ };
}

const SDLC = ['init', 'gate', 'next', 'skip', 'reenter', 'refreeze', 'waivers accept', 'status', 'audit', 'report', 'specs', 'handoff', 'profile validate'];

// ------------------------------------------------------------------------- Redis queue ------

let redisBase: string | undefined;
let redisMissing = 'no Redis server was started for the examples';
let nextDb = 1;

/** The Redis server the queue examples use (`redis://127.0.0.1:PORT`), or why there is none. */
export function useRedis(base: string | undefined, missing?: string): void {
  redisBase = base;
  if (missing) redisMissing = missing;
}

/** Polls the queue at `url` until `done(status)` (a generous hang catcher, not a speed limit). */
async function untilQueue(url: string, done: (status: Awaited<ReturnType<Admin['status']>>) => boolean): Promise<Awaited<ReturnType<Admin['status']>>> {
  const { openAdmin } = await import('../../plugins/queue-redis/index.ts');
  const admin = await openAdmin(url);
  try {
    for (let i = 0; i < 1200; i++) {
      const status = await admin.status();
      if (done(status)) return status;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`the queue at ${url} never got there`);
  } finally {
    await admin.close();
  }
}
type Admin = Awaited<ReturnType<typeof import('../../plugins/queue-redis/index.ts')['openAdmin']>>;

/** The key `sluice queue key` made in the sandbox's HOME. */
function sandboxQueueKey(s: Sandbox) {
  const file = join(s.env.XDG_CONFIG_HOME, 'sluice', 'queue.key');
  return queueKeyFrom(readFileSync(file, 'utf8').trim(), file);
}

/** A job of a name no worker has a handler for, dispatched to the queue at `url` and left waiting (no worker listens). */
async function waitingJob(url: string, s: Sandbox): Promise<void> {
  const { createRedisQueue } = await import('../../plugins/queue-redis/index.ts');
  const queue = createRedisQueue({ queueKey: sandboxQueueKey(s), url });
  // Known to this dispatcher only: the worker has no handler by that name and fails the job.
  (queue.register as (name: string, handler: () => Promise<unknown>) => void)('example:no-such-job', async () => ({}));
  (queue.run as (name: string, payload: unknown, o: object) => Promise<unknown>)('example:no-such-job', {}, { label: 'example' }).catch(() => {});
  await untilQueue(url, (s) => s.counts.waiting > 0);
  await queue.close();
}

/** That job taken by a real `sluice worker`, which fails it (no handler by that name); the failed job's id. */
async function failedJob(url: string, s: Sandbox): Promise<string> {
  await waitingJob(url, s);
  const worker = spawnReaped('sluice', ['worker', '--queue', url, '--workdir', join(s.dir, '..', 'worker')], { cwd: s.dir, env: s.env, stdio: 'ignore' });
  try {
    return (await untilQueue(url, (status) => status.failed.length > 0)).failed[0]!.id;
  } finally {
    const exited = new Promise((r) => worker.once('exit', r));
    worker.kill('SIGTERM');
    await exited;
  }
}

async function queueCommand(command: string, s: Sandbox): Promise<Expectation> {
  if (!redisBase) return { skip: redisMissing };
  const url = `${redisBase}/${nextDb++ % 16}`;
  const line = s.example.replace(/rediss?:\/\/[^\s/]+(\/\d+)?/, url).replace('/var/tmp/sluice', join(s.dir, '..', 'worker'));
  // The sandbox's person made their queue key first, as the README says.
  await must('sluice queue key', s);
  if (command === 'demo') return { line, output: /lifecycle/i };
  if (command === 'worker') return { line, stopWhen: /ready on/, codes: [0, 143], output: /stopped: 0 done/ };
  if (command === 'queue status') return { line, output: /"waiting": 0|0 waiting/ };
  // drain: a job nobody works is removed; retry: a job a worker failed goes back.
  if (command === 'queue drain') {
    await waitingJob(url, s);
    return { line, output: /1 waiting job\(s\) removed/ };
  }
  const failed = await failedJob(url, s);
  return { line: line.replace('JOB_ID', failed), output: /1 failed job\(s\) back in the queue/ };
}

/** The recipe of every command with examples; a command without one fails the test (add it here). */
export const RECIPES: Record<string, (command: string, s: Sandbox) => Promise<Expectation>> = {
  ...Object.fromEntries(SDLC.map((c) => [c, sdlcProject])),
  schema: async () => ({}),
  plugins: async () => ({}),
  errors: async () => ({ output: /USAGE|LIFECYCLE_RULE/ }),
  demo: async (command, s) => (s.example.includes('--queue') ? queueCommand(command, s) : { output: /sdlc|lifecycle/i }),
  delegate,
  trust,
  anchor,
  guard: hooks,
  'hooks install': hooks,
  // Exit 1 only when something the project requires is missing, which a fresh repository does not have.
  doctor: async (_command, s) => (await gitRepo(s.dir), { codes: [0, 1], output: /OS sandbox for AI CLI runs|"os-sandbox"/ }),
  tune,
  'tune status': tuneStatus,
  // Serves until its client closes stdin: the example's stdin is empty, so it stops at once.
  mcp: async () => ({}),
  worker: queueCommand,
  'queue key': async () => ({ output: /queue key|"created"/ }),
  ...Object.fromEntries(['queue status', 'queue retry', 'queue drain'].map((c) => [c, queueCommand])),
  ...Object.fromEntries(
    ['lifecycle start', 'lifecycle status', 'lifecycle next', 'lifecycle record', 'lifecycle recover', 'lifecycle run', 'lifecycle adopt-commit'].map((c) => [
      c,
      lifecycle,
    ]),
  ),
};

/** Does this example ask a person on a terminal (run it under `script`)? */
export const scriptAvailable = (() => {
  try {
    execFileSync('script', ['-qec', 'true', '/dev/null'], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
})();
