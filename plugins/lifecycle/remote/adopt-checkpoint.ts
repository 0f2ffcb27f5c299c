import { dirname } from 'pathe';
import type { QueueKey } from '../../../core/index.ts';
import { journalSpec, verifyJournal } from '../journal/requirement-journal.ts';
import type { LifecycleContext } from '../lifecycle-context.ts';
import { workflowStatePath } from '../state/workflow-state-file.ts';
import { hooklessGit as git, hooklessRunGit as runGit } from '../workspace/hookless-git.ts';
import { verifiedCheckpoint } from './checkpoint-signature.ts';
import { checkpointRef, remoteEnv } from './remote-git.ts';

/**
 * After a remote job, the orchestrator's own records catch up with the worker's: the checkpoint is
 * fetched (its commit, the requirement's, comes with it) and its journal and state replace the local
 * ones, but only when the local journal is where the checkpoint's began (a prefix of it): records
 * someone wrote here meanwhile are never overwritten. Returns why it did not adopt, or undefined. A
 * checkpoint not signed with the queue key is QUEUE_CHECKPOINT_FORGED, and nothing of it is read.
 */
export async function adoptCheckpoint(lc: LifecycleContext, remote: string, slug: string, checkpoint: string, key: QueueKey): Promise<string | undefined> {
  const ref = checkpointRef(slug);
  const fetched = await runGit(lc.host, lc.root, ['fetch', '--quiet', '--', remote, `+${ref}:${ref}`], { env: remoteEnv(lc.host) });
  if (fetched.code !== 0) return `cannot fetch ${ref}: ${fetched.stderr.trim().split('\n')[0]}`;
  await verifiedCheckpoint(lc.host, lc.root, key, slug, checkpoint, ref);
  const journalFile = `.prizmkit/state/journal/${slug}.jsonl`;
  const stateFile = `.prizmkit/state/workflows/${slug}.json`;
  const journal = await git(lc.host, lc.root, ['show', `${checkpoint}:${journalFile}`]);
  const state = await git(lc.host, lc.root, ['show', `${checkpoint}:${stateFile}`]);
  verifyJournal(journal, `${ref}:${journalFile}`);
  // Through the journaled store: under the journal's lock, checked again, and anchored here at the worker's head.
  const taken = await lc.kernel.store.extend(journalSpec(lc, slug), journal, async () => {
    await lc.host.mkdir(dirname(workflowStatePath(lc.root, slug)));
    await lc.host.writeAtomic(workflowStatePath(lc.root, slug), state);
  });
  if (!taken) return `the local journal of ${slug} changed during the run; kept it (the worker's is ${ref})`;
  return undefined;
}
