import { SluiceError, type Host, type QueueKey } from '../../../core/index.ts';
import { hooklessGit } from '../workspace/hookless-git.ts';

/** The trailer of a checkpoint commit that carries its HMAC under the queue key. */
export const SIGNATURE_TRAILER = 'Sluice-Signature';

/** What a checkpoint's signature binds: its requirement, its content (the tree), what it sits on and the run's base. */
export interface CheckpointFacts {
  slug: string;
  tree: string;
  parent: string;
  base: string;
}

export function signCheckpoint(key: QueueKey, facts: CheckpointFacts): string {
  return key.sign('checkpoint', facts);
}

/** A checkpoint commit's facts and signature as git has them (one git process). */
export async function readCheckpoint(host: Host, root: string, sha: string): Promise<{ facts: Omit<CheckpointFacts, 'slug'>; signature: string }> {
  const out = await hooklessGit(host, root, [
    'log',
    '-1',
    `--format=%T%x00%P%x00%(trailers:key=Sluice-Base,valueonly,separator=%x2C)%x00%(trailers:key=${SIGNATURE_TRAILER},valueonly,separator=%x2C)`,
    sha,
  ]);
  const [tree = '', parent = '', base = '', signature = ''] = out.split('\0').map((s) => s.trim());
  return { facts: { tree, parent, base }, signature };
}

/**
 * The checkpoint's facts when a holder of the queue key made it for this requirement; else
 * QUEUE_CHECKPOINT_FORGED naming the ref, and nothing of it is used.
 */
export async function verifiedCheckpoint(
  host: Host,
  root: string,
  key: QueueKey,
  slug: string,
  sha: string,
  ref: string,
  read?: Awaited<ReturnType<typeof readCheckpoint>>,
): Promise<CheckpointFacts> {
  const { facts, signature } = read ?? (await readCheckpoint(host, root, sha));
  const all = { slug, ...facts };
  if (!key.verify('checkpoint', all, signature))
    throw new SluiceError('QUEUE_CHECKPOINT_FORGED', {
      message: `${ref} (${sha.slice(0, 12)}) ${signature ? 'has a signature that does not match it' : 'carries no signature'} under the queue key ${key.file}: refused, nothing adopted from it`,
      data: { ref, sha },
    });
  return all;
}
