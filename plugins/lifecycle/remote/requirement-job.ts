import { dirname, isAbsolute, join } from 'pathe';
import { readQueueKey, SluiceError, type JobContext, type JsonValue, type Kernel, type QueueKey } from '../../../core/index.ts';
import type { AuthorizeOptions } from '../commit/authorize-commit.ts';
import { JOURNAL_DIR } from '../journal/requirement-journal.ts';
import { createLifecycleContext, type LifecycleContext } from '../lifecycle-context.ts';
import { readWorkflowState } from '../record-stage.ts';
import { recoverRequirement } from '../recovery/recover-requirement.ts';
import { RUNNER_ORCHESTRATOR } from '../runner/drive-requirement.ts';
import { runLifecycle, type RequirementOutcome } from '../runner/run-lifecycle.ts';
import { checkSlug } from '../slug.ts';
import { WORKFLOWS_DIR } from '../state/workflow-state-file.ts';
import type { WorkflowState } from '../state/workflow-state-schema.ts';
import type { Stage } from '../transition-table.ts';
import { readCheckpoint, signCheckpoint, verifiedCheckpoint } from './checkpoint-signature.ts';
import { acceptJobGrant } from './job-grant.ts';
import { checkCheckpointPaths, seedTarget } from './job-paths.ts';
import {
  checkoutBase,
  checkpointRef,
  cloneRemote,
  headSha,
  checkpointCommit,
  checkpointIndex,
  cloneGitDir,
  pushRef,
  pushRefs,
  remoteRefSha,
  localRefShas,
  requirementBranch,
  restoreCheckpoint,
} from './remote-git.ts';

/** One requirement's durable job: everything a worker needs, as JSON. */
export interface RequirementJobPayload {
  slug: string;
  /** The git remote the worker clones and pushes to. */
  remote: string;
  /** The commit the requirement's branch starts from. */
  base: string;
  /** The requirement's files from the orchestrator's project (artifacts, state, journal), for a first run: path → text. */
  seed: Record<string, string>;
  backend: string;
  extra?: { [key: string]: JsonValue };
  model?: string;
  timeoutMs?: number;
  maxAttempts: number;
  /** A signed grant bound to the remote and this requirement (job-grant.ts); absent: no commit authority travels. */
  grant?: string;
  /**
   * The git identity of whoever ran the orchestrator: the requirement's commit is made as them, as in a
   * local run (a clone carries none of the project's config). Absent: the worker's own identity.
   */
  author?: { name: string; email: string };
}

export interface RequirementJobResult extends RequirementOutcome {
  /** The checkpoint the job left on the remote (refs/sluice/checkpoints/<slug>). */
  checkpoint?: string;
  /** Set when the commit was pushed to sluice/<slug>. */
  branch?: string;
  /** The checkpoint this run resumed from (a dead worker's job, or an earlier run). */
  resumedFrom?: string;
  /** Set by the orchestrator when its own records could not take the checkpoint's journal (why). */
  localRecords?: string;
  /** Why the workers could not commit (no grant, or the job's grant was refused). */
  authorization?: string;
  /** Where `recover` (run on the resumed checkpoint) said the requirement resumes. */
  recovery?: string;
}

declare module '../../../core/queue/job-queue.ts' {
  interface Jobs {
    'lifecycle:requirement': { payload: RequirementJobPayload; result: RequirementJobResult };
  }
}

/** What code embedding a worker may set for its requirement jobs. */
export interface RequirementJobHost {
  /** The queue key that signs and verifies checkpoints (default: $SLUICE_QUEUE_KEY_FILE, else the user folder's queue.key). */
  queueKeyFile?: string;
  userConfigFile?: string;
  /** Where clones go when the job context names no workdir (in-process runs). */
  workdir?: string;
}
const hostSettings = new WeakMap<Kernel, RequirementJobHost>();
export function configureRequirementJobs(kernel: Kernel, settings: RequirementJobHost): void {
  hostSettings.set(kernel, settings);
}

/** Stage names the orchestrator shows in its progress line, reported by the worker as the job runs. */
export interface RequirementJobProgress {
  slug: string;
  stage: Stage | null;
}

/**
 * `lifecycle:requirement`: one requirement, run in the worker's own clone of the remote on branch
 * sluice/<slug> from the recorded base commit. After every stage a checkpoint (workspace, state, journal)
 * is pushed to refs/sluice/checkpoints/<slug>, compare-and-swap, so a job taken over from a dead worker
 * resumes from the last one through `recover`, and the dead worker cannot overwrite it. The commit goes
 * to sluice/<slug>. In-process runs use the same handler.
 */
export async function runRequirementJob(kernel: Kernel, payload: RequirementJobPayload, job: JobContext): Promise<RequirementJobResult> {
  const { host } = kernel;
  const settings = hostSettings.get(kernel) ?? {};
  const slug = checkSlug(payload.slug);
  const workdir = job.workdir ?? settings.workdir ?? join(kernel.projectRoot, '.sluice', 'clones');
  const dir = join(workdir, slug);
  // Checkpoints are signed and verified with the queue key: without it nothing starts.
  const key = await readQueueKey(host, settings.queueKeyFile);
  await host.mkdir(workdir);
  await host.remove(dir, { recursive: true }).catch(() => {});
  // The clone brings the checkpoint to resume from too, so both refs are read from it: the checkpoint, and the
  // branch the commit's push must find (as the remote had them when cloned: the pushes compare and swap).
  await cloneRemote(host, workdir, payload.remote, dir, { alsoFetch: [checkpointRef(slug)], ...(payload.author ? { identity: payload.author } : {}) });
  const branchRef = `refs/heads/${requirementBranch(slug)}`;
  const [checkpointThere, branchThere] = await localRefShas(host, dir, [checkpointRef(slug), `refs/remotes/origin/${requirementBranch(slug)}`]);
  let last = checkpointThere;
  let resumedFrom: string | undefined;
  let resumedTree: string | null = null;
  // The commit HEAD is at while the stages run: the base, or the parent of the checkpoint resumed from.
  let startHead = payload.base;
  if (last !== null) {
    const checkpoint = last;
    // Its tree, parent and base in one git process: the tree tells the first checkpoint whether anything changed.
    const { facts, signature } = await readCheckpoint(host, dir, checkpoint);
    // A checkpoint of another base belongs to an earlier run of other code: this run starts over (and replaces it).
    // One of this base is resumed only when a holder of the queue key made it, and it changes nothing git runs.
    if (facts.base === payload.base && (await verifiedCheckpoint(host, dir, key, slug, checkpoint, checkpointRef(slug), { facts, signature }))) {
      await checkCheckpointPaths(host, dir, facts.parent, checkpoint, checkpointRef(slug));
      await restoreCheckpoint(host, dir, slug, checkpoint);
      resumedFrom = checkpoint;
      resumedTree = facts.tree;
      startHead = facts.parent;
    }
  }
  if (!resumedFrom) {
    await checkoutBase(host, dir, payload.remote, slug, payload.base);
    // Every path is checked before the first file is written: a refused seed leaves the clone as cloned.
    const seeds: [string, string][] = [];
    for (const [path, text] of Object.entries(payload.seed)) seeds.push([await seedTarget(host, dir, slug, path), text]);
    for (const [full, text] of seeds) {
      await host.mkdir(dirname(full));
      await host.writeAtomic(full, text);
    }
  }
  const lc = createLifecycleContext(kernel, dir);
  // A resumed job goes through the same recovery as a local `recover`: evidence decides, counters and owner are kept.
  let recovery: string | undefined;
  if (resumedFrom && (await readWorkflowState(lc, slug).catch(() => null))?.status !== 'COMMITTED') {
    const report = await recoverRequirement(lc, slug, RUNNER_ORCHESTRATOR);
    recovery = report.steps.at(-1)?.finding;
  }

  const records = [`${JOURNAL_DIR}/${slug}.jsonl`, `${WORKFLOWS_DIR}/${slug}.json`];
  let lastTree = resumedTree;
  const trees = checkpointIndex(host, dir, cloneGitDir(dir), records);
  let branchPushed = false;
  const checkpoint = async (state: WorkflowState) => {
    // The state and journal are in the tree, so an unchanged tree is nothing new (a resume that only re-read its state).
    const parent = state.status === 'COMMITTED' && state.commit ? state.commit.sha : startHead;
    const tree = await trees.tree(parent);
    if (tree === lastTree) return;
    // A worker that lost the job's lease (frozen past it) must not make its stage count: another worker runs it.
    if (job.leaseHeld && !(await job.leaseHeld()))
      throw new SluiceError('QUEUE_LEASE_LOST', { message: `${slug}: this worker lost the job's lease; its work since the last checkpoint is discarded` });
    const sha = await checkpointCommit(host, dir, tree, checkpointMessage(slug, state, payload.base, key, { tree, parent }));
    const update = { sha, ref: checkpointRef(slug), expected: last };
    if (state.status === 'COMMITTED' && !branchPushed) {
      // The commit goes to sluice/<slug> in the same atomic push as the checkpoint recording it: the checkpoint's
      // parent (HEAD when it was made) is the commit, named so git resolves it in the push itself.
      await pushRefs(host, dir, payload.remote, [update, { sha: `${sha}^1`, ref: branchRef, expected: branchThere }]);
      branchPushed = true;
    } else await pushRef(host, dir, payload.remote, sha, checkpointRef(slug), last);
    last = sha;
    lastTree = tree;
  };

  const authorize: AuthorizeOptions = { ...(settings.userConfigFile ? { userConfigFile: settings.userConfigFile } : {}) };
  let grantRefused: string | undefined;
  if (payload.grant) {
    const accepted = acceptJobGrant(payload.grant, payload.remote, slug, host.now());
    if ('grant' in accepted) authorize.hostGrant = accepted.grant;
    else grantRefused = accepted.refused;
  }
  try {
    const summary = await runLifecycle(lc, {
      slugs: [slug],
      backend: payload.backend,
      ...(payload.extra ? { extra: projectScript(payload.extra, dir) } : {}),
      ...(payload.model ? { model: payload.model } : {}),
      ...(payload.timeoutMs ? { timeoutMs: payload.timeoutMs } : {}),
      maxAttempts: payload.maxAttempts,
      authorize,
      signal: job.signal,
      onStage: (s, stage) =>
        (job as JobContext & { progress?(data: JsonValue): void }).progress?.({ slug: s, stage } satisfies RequirementJobProgress as unknown as JsonValue),
      afterTransition: (_s, state) => checkpoint(state),
    });
    const outcome = summary.requirements[0];
    const result: RequirementJobResult = { ...outcome, ...(resumedFrom ? { resumedFrom } : {}), ...(recovery ? { recovery } : {}) };
    if (grantRefused && outcome.outcome === 'awaiting-authorization') result.authorization = grantRefused;
    // An interrupted stage may have left partial writes: those never become a checkpoint. Nothing runs after
    // the commit, so the COMMITTED checkpoint this job pushed is already the last one.
    const finalCheckpoint = outcome.outcome === 'committed' ? !branchPushed : outcome.outcome === 'blocked' || outcome.outcome === 'awaiting-authorization';
    if (finalCheckpoint) {
      await checkpoint(await readWorkflowState(lc, slug));
    }
    if (last !== null) result.checkpoint = last;
    if (outcome.outcome === 'committed') result.branch = branchPushed ? requirementBranch(slug) : await pushCommit(lc, payload.remote, slug);
    return result;
  } finally {
    await trees.dispose();
  }
}

/** Pushes the requirement's commit to sluice/<slug>; pushing it again (a resumed job) changes nothing. */
async function pushCommit(lc: LifecycleContext, remote: string, slug: string): Promise<string> {
  const ref = `refs/heads/${requirementBranch(slug)}`;
  const head = await headSha(lc.host, lc.root);
  const there = await remoteRefSha(lc.host, lc.root, remote, ref);
  if (there !== head) await pushRef(lc.host, lc.root, remote, head, ref, there);
  return requirementBranch(slug);
}

function checkpointMessage(slug: string, state: WorkflowState, base: string, key: QueueKey, made: { tree: string; parent: string }): string {
  const seq = (state as WorkflowState & { journal?: { seq: number } }).journal?.seq;
  const signature = signCheckpoint(key, { slug, ...made, base });
  return `sluice checkpoint: ${slug} ${state.status ?? 'started'}${seq === undefined ? '' : ` (journal entry ${seq})`}\n\nSluice-Requirement-Checkpoint: ${slug}\nSluice-Base: ${base}\nSluice-Signature: ${signature}`;
}

/** A relative script path names a file of the project, so in a clone it is the clone's file. */
function projectScript(extra: { [key: string]: JsonValue }, root: string): Record<string, unknown> {
  const script = extra.script;
  return typeof script === 'string' && script !== '' && !isAbsolute(script) ? { ...extra, script: join(root, script) } : extra;
}
