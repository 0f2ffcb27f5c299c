import { SluiceError } from '../errors/sluice-error.ts';
import { HostNotFoundError, type HeldFile, type Host } from '../host/host.ts';

/**
 * Exclusive file locks with stale-lock detection, built on the Host's create-exclusive primitive.
 * The lock file holds the owner's pid and host name. A lock whose owner is dead on this machine is
 * taken over at once; a live owner makes the caller wait, then fail with LOCK_BUSY naming the pid.
 *
 * Why not proper-lockfile: it detects staleness only by mtime (a crashed holder blocks everyone for
 * the stale period) and cannot say which process holds the lock.
 */
export interface LockOwner {
  pid: number;
  hostname: string;
  acquiredAt: string;
  purpose?: string;
}

export interface LockOptions {
  /** How long to wait for a live holder before giving up with LOCK_BUSY. */
  waitMs?: number;
  /** A lock from another machine counts as stale after this long. */
  foreignStaleMs?: number;
  purpose?: string;
  /** Name shown in errors. */
  display?: string;
  /**
   * Keep the lock file open while it is held, where the host can (Host.createHeld): release then checks
   * ownership by file identity instead of re-reading the file, several round trips fewer. For short
   * locks (one state update); a long run holding a lock per requirement would hold that many descriptors.
   */
  keepOpen?: boolean;
}

export interface LockHandle {
  readonly path: string;
  release(): Promise<void>;
}

const POLL_MS = 15;
/** A lock file with no readable owner (its creator died between create and write) is stale after this. */
const UNREADABLE_STALE_MS = 2000;
const STEAL_STALE_MS = 5000;

export async function acquireLock(host: Host, lockPath: string, options: LockOptions = {}): Promise<LockHandle> {
  const waitMs = options.waitMs ?? 5000;
  const deadline = host.now().getTime() + waitMs;
  const owner: LockOwner = { pid: host.pid, hostname: host.hostname(), acquiredAt: host.now().toISOString(), purpose: options.purpose };
  const mine = JSON.stringify(owner);
  let delay = POLL_MS;
  for (;;) {
    const created = await createLockFile(host, lockPath, mine, options.keepOpen === true);
    if (created) return handle(lockPath, created);
    const holder = await readHolder(host, lockPath);
    if (holder === 'gone') continue;
    if (isStale(host, holder, options)) {
      await takeOver(host, lockPath, holder.text, mine);
      continue;
    }
    if (host.now().getTime() >= deadline) {
      const pid = holder.owner?.pid;
      throw new SluiceError('LOCK_BUSY', {
        file: options.display ?? lockPath,
        message: pid === undefined ? 'the file is locked by another process' : `the file is locked by process ${pid} on ${holder.owner?.hostname}${holder.owner?.purpose ? ` (${holder.owner.purpose})` : ''}`,
        data: { pid, hostname: holder.owner?.hostname, since: holder.owner?.acquiredAt },
      });
    }
    // Jittered backoff keeps two waiting processes from polling in lockstep.
    await host.sleep(delay + Math.floor(Math.random() * delay));
    delay = Math.min(delay * 2, 200);
  }
}

interface Holder {
  text: string;
  owner?: LockOwner;
  ageMs: number;
}

async function readHolder(host: Host, lockPath: string): Promise<Holder | 'gone'> {
  try {
    const [text, info] = await Promise.all([host.readText(lockPath), host.stat(lockPath)]);
    if (info === null) return 'gone';
    const ageMs = host.now().getTime() - info.mtimeMs;
    try {
      const owner = JSON.parse(text) as LockOwner;
      // Only a real process id: `kill(0)` and `kill(-1)` succeed (they address groups), so such an owner would never look dead.
      if (Number.isSafeInteger(owner?.pid) && owner.pid > 0 && typeof owner.hostname === 'string') return { text, owner, ageMs };
    } catch {
      // fall through: unreadable owner
    }
    return { text, ageMs };
  } catch (error) {
    if (error instanceof HostNotFoundError) return 'gone';
    throw error;
  }
}

function isStale(host: Host, holder: Holder, options: LockOptions): boolean {
  if (holder.owner === undefined) return holder.ageMs > UNREADABLE_STALE_MS;
  if (holder.owner.hostname === host.hostname()) return holder.owner.pid !== host.pid && !host.processAlive(holder.owner.pid);
  return holder.ageMs > (options.foreignStaleMs ?? 10 * 60_000);
}

/**
 * Removing a stale lock races with other processes doing the same. Takeovers serialize on a
 * second `.steal` lock, and the stale file is only removed if it still holds what we judged stale.
 */
async function takeOver(host: Host, lockPath: string, staleText: string, mine: string): Promise<void> {
  const stealPath = `${lockPath}.steal`;
  if (!(await host.writeExclusive(stealPath, mine))) {
    const info = await host.stat(stealPath);
    if (info && host.now().getTime() - info.mtimeMs > STEAL_STALE_MS) await host.remove(stealPath).catch(() => {});
    else await host.sleep(POLL_MS);
    return;
  }
  try {
    const current = await host.readText(lockPath).catch(() => undefined);
    if (current === staleText) await host.remove(lockPath);
  } finally {
    await host.remove(stealPath).catch(() => {});
  }
}

/** The lock file, as a held file where asked and possible, else created plainly and re-read on release. */
async function createLockFile(host: Host, lockPath: string, mine: string, keepOpen: boolean): Promise<HeldFile | null> {
  if (keepOpen && host.createHeld) return host.createHeld(lockPath, mine);
  if (!(await host.writeExclusive(lockPath, mine))) return null;
  return {
    async removeIfOwn() {
      const current = await host.readText(lockPath).catch(() => undefined);
      if (current === mine) await host.remove(lockPath);
    },
  };
}

function handle(lockPath: string, file: HeldFile): LockHandle {
  let released = false;
  return {
    path: lockPath,
    async release() {
      if (released) return;
      released = true;
      // Only removes the lock if it is still ours (it may have been judged stale and taken over).
      await file.removeIfOwn().catch(() => {});
    },
  };
}
