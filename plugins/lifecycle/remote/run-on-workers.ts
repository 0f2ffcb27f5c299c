import { dirname, join } from 'pathe';
import {
  acquireLock,
  createQueueKey,
  isSluiceError,
  queueKeyFile,
  readQueueKey,
  SluiceError,
  toSluiceError,
  type JobQueue,
  type JsonValue,
  type LockHandle,
} from '../../../core/index.ts';
import { journalPath } from '../journal/requirement-journal.ts';
import type { LifecycleContext } from '../lifecycle-context.ts';
import { SPEC } from '../readers/plan-tasks-reader.ts';
import { readWorkflowState } from '../record-stage.ts';
import { FATAL_CODES } from '../runner/drive-requirement.ts';
import { withFollower } from '../runner/follow-signal.ts';
import { createRunTracker } from '../runner/run-tracker.ts';
import { fail, openRequirements, summarize, type RequirementOutcome, type RunLifecycleOptions, type RunSummary } from '../runner/run-lifecycle.ts';
import { ARTIFACT_KINDS, artifactDirFor, checkSlug } from '../slug.ts';
import { workflowStatePath } from '../state/workflow-state-file.ts';
import { git, runGit } from '../workspace/run-git.ts';
import { adoptCheckpoint } from './adopt-checkpoint.ts';
import { grantsForWorkers } from './job-grant.ts';
import type { RequirementJobPayload, RequirementJobProgress } from './requirement-job.ts';

export interface RunOnWorkersOptions extends RunLifecycleOptions {
  /** Where workers get the project; default the project's `origin`. */
  remote?: string;
  /** The queue of durable jobs: Redis for workers, or an in-process queue running the same handler. */
  dispatcher: JobQueue;
  /** The queue key that verifies the workers' checkpoints (default: $SLUICE_QUEUE_KEY_FILE, else the user folder's queue.key). */
  queueKeyFile?: string;
}

/** The requirement's own files a worker needs for a first run are small; more is a mistake, not a payload. */
const MAX_SEED_BYTES = 8 * 1024 * 1024;

/**
 * `sluice lifecycle run --queue URL`: one durable `lifecycle:requirement` job per requirement, awaited;
 * the progress line and the summary are a local run's. Commit authority goes with each job as a grant
 * bound to the remote and the requirement (job-grant.ts); cancelling the run cancels its jobs.
 */
export async function runLifecycleOnWorkers(lc: LifecycleContext, o: RunOnWorkersOptions): Promise<RunSummary> {
  const started = performance.now();
  const slugs = o.slugs && o.slugs.length > 0 ? [...new Set(o.slugs.map(checkSlug))] : await openRequirements(lc);
  const remote = o.remote ?? (await originUrl(lc));
  // Without the key no checkpoint can be verified: said before anything is queued. In this process
  // (`--remote` without workers) this machine both signs and verifies, so it makes its key if it has none.
  if (o.dispatcher.kind === 'local') await createQueueKey(lc.host, o.queueKeyFile ?? queueKeyFile(lc.host));
  const key = await readQueueKey(lc.host, o.queueKeyFile);
  const base = (await git(lc.host, lc.root, ['rev-parse', '--verify', 'HEAD^{commit}'])).trim();
  const author = await gitIdentity(lc);
  const run = createRunTracker(slugs.length, o);
  const { abort, outcomes } = run;
  const locks: LockHandle[] = [];
  try {
    const seeds = new Map<string, Record<string, string> | RequirementOutcome>();
    for (const slug of slugs) seeds.set(slug, await lockAndSeed(lc, slug, locks).catch((error) => fail(slug, error)));
    const dispatched = slugs.filter((s) => !('outcome' in seeds.get(s)!));
    const { grants, refused } = await grantsForWorkers(lc, dispatched, remote, o.authorize ?? {});
    await Promise.all(
      slugs.map(async (slug) => {
        const seed = seeds.get(slug)!;
        if ('outcome' in seed) return void outcomes.set(slug, seed as RequirementOutcome);
        const payload: RequirementJobPayload = {
          slug,
          remote,
          base,
          seed: seed as Record<string, string>,
          backend: o.backend,
          maxAttempts: o.maxAttempts ?? 2,
          ...(o.extra ? { extra: o.extra as { [key: string]: JsonValue } } : {}),
          ...(o.model ? { model: o.model } : {}),
          ...(o.timeoutMs ? { timeoutMs: o.timeoutMs } : {}),
          ...(grants.has(slug) ? { grant: grants.get(slug)! } : {}),
          ...(author ? { author } : {}),
        };
        try {
          const result = await withFollower(abort.signal, (signal) =>
            o.dispatcher.run('lifecycle:requirement', payload, {
              key: `lifecycle:${slug}`,
              label: slug,
              signal,
              needs: [o.backend],
              onProgress: (data) => run.stage(slug, (data as RequirementJobProgress | null)?.stage ?? null),
            }),
          );
          const why = refused.get(slug);
          const localRecords = result.checkpoint
            ? await adoptCheckpoint(lc, remote, slug, result.checkpoint, key).catch((e) => {
                // Forged work is the requirement's failure, not a note: nothing of it reached this project.
                if (isSluiceError(e, 'QUEUE_CHECKPOINT_FORGED')) throw e;
                return toSluiceError(e).message;
              })
            : undefined;
          outcomes.set(slug, {
            ...result,
            ...(result.outcome === 'awaiting-authorization' && why && !result.authorization ? { authorization: why } : {}),
            ...(localRecords ? { localRecords } : {}),
          });
        } catch (error) {
          if (abort.signal.aborted && (!isSluiceError(error) || error.code === 'QUEUE_CANCELLED'))
            return void outcomes.set(slug, { ...fail(slug, error), outcome: 'interrupted' });
          if (isSluiceError(error) && FATAL_CODES.has(error.code)) abort.abort();
          outcomes.set(slug, fail(slug, error));
        } finally {
          run.stage(slug, null);
        }
      }),
    );
  } finally {
    await Promise.all(locks.map((l) => l.release()));
    run.dispose();
  }
  return summarize(
    slugs.map((s) => outcomes.get(s)!),
    started,
  );
}

/** One writer per requirement here too: a local run of it and this run exclude each other (busy, exit 3). */
async function lockAndSeed(lc: LifecycleContext, slug: string, locks: LockHandle[]): Promise<Record<string, string> | RequirementOutcome> {
  const statePath = workflowStatePath(lc.root, slug);
  await lc.host.mkdir(dirname(statePath));
  try {
    locks.push(await acquireLock(lc.host, `${statePath}.run.lock`, { waitMs: 0, purpose: 'sluice lifecycle run', display: lc.kernel.display(statePath) }));
  } catch (error) {
    if (isSluiceError(error, 'LOCK_BUSY')) return { ...fail(slug, error), outcome: 'busy' };
    throw error;
  }
  return seedOf(lc, slug);
}

/** The identity a local run would commit with here (project, then global config); undefined when git has none. */
async function gitIdentity(lc: LifecycleContext): Promise<{ name: string; email: string } | undefined> {
  const [name, email] = await Promise.all(['user.name', 'user.email'].map(async (key) => (await runGit(lc.host, lc.root, ['config', key])).stdout.trim()));
  return name && email ? { name, email } : undefined;
}

async function originUrl(lc: LifecycleContext): Promise<string> {
  const r = await runGit(lc.host, lc.root, ['remote', 'get-url', 'origin']);
  const url = r.stdout.trim();
  if (r.code !== 0 || url === '')
    throw new SluiceError('USAGE', {
      field: '--remote',
      message: 'workers take the project from a git remote: the project has no `origin`; name one with --remote URL',
    });
  return url;
}

/**
 * What a worker needs besides the base commit: the requirement's artifact folder, state and journal as
 * the orchestrator has them. A requirement without state needs its goal in spec.md, as a local run does.
 */
async function seedOf(lc: LifecycleContext, slug: string): Promise<Record<string, string> | RequirementOutcome> {
  const files: Record<string, string> = {};
  let bytes = 0;
  const add = async (full: string, rel: string) => {
    const text = await lc.host.readText(full);
    bytes += text.length;
    if (bytes > MAX_SEED_BYTES)
      throw new SluiceError('USAGE', { message: `${slug}: its artifacts are larger than ${MAX_SEED_BYTES} bytes; commit them to the remote instead` });
    files[rel] = text;
  };
  const walk = async (rel: string): Promise<void> => {
    for (const e of await lc.host.listDir(join(lc.root, rel)).catch(() => [])) {
      if (e.kind === 'dir') await walk(`${rel}/${e.name}`);
      else if (e.kind === 'file') await add(join(lc.root, rel, e.name), `${rel}/${e.name}`);
    }
  };
  for (const kind of ARTIFACT_KINDS) await walk(artifactDirFor(kind, slug));
  const statePath = workflowStatePath(lc.root, slug);
  if (await lc.host.stat(statePath)) {
    const state = await readWorkflowState(lc, slug);
    if (state.status === 'COMMITTED')
      return {
        slug,
        outcome: 'committed',
        status: state.status,
        nextStage: null,
        staleReset: [],
        stages: [],
        ...(state.commit ? { commit: state.commit.sha } : {}),
      };
    await add(statePath, `.prizmkit/state/workflows/${slug}.json`);
    if (await lc.host.stat(journalPath(lc.root, slug))) await add(journalPath(lc.root, slug), `.prizmkit/state/journal/${slug}.jsonl`);
  } else if (!Object.keys(files).some((f) => f.endsWith(`/${slug}/${SPEC}`))) {
    throw new SluiceError('ARTIFACT_MISSING', {
      file: `${artifactDirFor('specs', slug)}/${SPEC}`,
      message: `${slug} has no spec.md with its goal`,
      hint: `write it, or run \`sluice lifecycle start ${slug} --goal "..."\``,
    });
  }
  return files;
}
