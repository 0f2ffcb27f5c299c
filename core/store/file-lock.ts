import { SluiceError } from '../errors/sluice-error.ts';
import { HostNotFoundError, HostNotRegularError, HostTooLargeError, type HeldFile, type Host } from '../host/host.ts';

/**
 * Exclusive file locks with stale-lock detection, built on the Host's create-exclusive primitive.
 * The lock file holds the owner's pid and host name. A lock whose owner is dead on this machine is
 * taken over at once; a live owner makes the caller wait, then fail with LOCK_BUSY naming the pid.
 * A pid means nothing on another machine (a shared or network folder), so a holder refreshes a
 * heartbeat in the file while it holds the lock, and a lock from another host is stale only once
 * its heartbeat has lapsed: a live holder is never taken over just because its lock is old.
 *
 * Why not proper-lockfile: it detects staleness only by mtime (a crashed holder blocks everyone for
 * the stale period) and cannot say which process holds the lock.
 */
export interface LockOwner {
  pid: number;
  hostname: string;
  acquiredAt: string;
  purpose?: string;
  /** Last refresh by the holder, and how often it refreshes; absent in locks from older versions. */
  heartbeatAt?: string;
  heartbeatMs?: number;
}

export interface LockOptions {
  /** How long to wait for a live holder before giving up with LOCK_BUSY. */
  waitMs?: number;
  /** A lock from another machine without a heartbeat (an older sluice) counts as stale after this long. */
  foreignStaleMs?: number;
  /** How often the holder refreshes its heartbeat (where the host has timers, Host.repeat). */
  heartbeatMs?: number;
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
  /** Refreshes the heartbeat now; the host's timer calls it every heartbeatMs. */
  heartbeat(): Promise<void>;
  release(): Promise<void>;
}

const POLL_MS = 15;
/** A lock file is one line of JSON; anything longer is not one sluice wrote. */
const MAX_LOCK_BYTES = 64 * 1024;
/** A lock file with no readable owner (its creator died between create and write) is stale after this. */
const UNREADABLE_STALE_MS = 2000;
const STEAL_STALE_MS = 5000;
export const HEARTBEAT_MS = 30_000;
/** Missed beats before a foreign lock is stale: room for a slow disk, a loaded machine or clock skew. */
const LAPSED_BEATS = 4;

export async function acquireLock(host: Host, lockPath: string, options: LockOptions = {}): Promise<LockHandle> {
  const waitMs = options.waitMs ?? 5000;
  const deadline = host.now().getTime() + waitMs;
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  const at = host.now().toISOString();
  const owner: LockOwner = { pid: host.pid, hostname: host.hostname(), acquiredAt: at, purpose: options.purpose, heartbeatAt: at, heartbeatMs };
  const mine = JSON.stringify(owner);
  let delay = POLL_MS;
  for (;;) {
    const created = await createLockFile(host, lockPath, mine, options.keepOpen === true);
    if (created) return handle(host, lockPath, created, owner);
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
        message:
          pid === undefined
            ? 'the file is locked by another process'
            : `the file is locked by process ${pid} on ${holder.owner?.hostname}${holder.owner?.purpose ? ` (${holder.owner.purpose})` : ''}`,
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

/**
 * The lock file's text; a file sluice cannot have written (over the size cap, a FIFO) reads as one
 * fixed text, so it counts as an owner nobody can read and goes stale like a half-written lock.
 */
async function readLockText(host: Host, lockPath: string): Promise<string> {
  try {
    return await host.readText(lockPath, { maxBytes: MAX_LOCK_BYTES });
  } catch (error) {
    if (error instanceof HostTooLargeError || error instanceof HostNotRegularError) return NOT_A_LOCK;
    throw error;
  }
}
const NOT_A_LOCK = '\0not a lock file sluice wrote';

async function readHolder(host: Host, lockPath: string): Promise<Holder | 'gone'> {
  try {
    const [text, info] = await Promise.all([readLockText(host, lockPath), host.stat(lockPath)]);
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
  const owner = holder.owner;
  if (owner === undefined) return holder.ageMs > UNREADABLE_STALE_MS;
  if (owner.hostname === host.hostname()) return owner.pid !== host.pid && !host.processAlive(owner.pid);
  const beat = Date.parse(owner.heartbeatAt ?? '');
  const every = owner.heartbeatMs;
  if (Number.isNaN(beat) || typeof every !== 'number' || !(every > 0)) return holder.ageMs > (options.foreignStaleMs ?? 10 * 60_000);
  // The later of the holder's own stamp and the file's mtime: either clock may be the one that is behind.
  const sinceBeat = Math.min(host.now().getTime() - beat, holder.ageMs);
  return sinceBeat > LAPSED_BEATS * every;
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
    const current = await readLockText(host, lockPath).catch(() => undefined);
    if (current === staleText) await host.remove(lockPath);
  } finally {
    await host.remove(stealPath).catch(() => {});
  }
}

/** The lock file, as a held file where asked and possible, else created plainly and re-read on release. */
async function createLockFile(host: Host, lockPath: string, mine: string, keepOpen: boolean): Promise<HeldFile | null> {
  if (keepOpen && host.createHeld) return host.createHeld(lockPath, mine);
  if (!(await host.writeExclusive(lockPath, mine))) return null;
  let current = mine;
  const own = async () => (await host.readText(lockPath, { maxBytes: MAX_LOCK_BYTES }).catch(() => undefined)) === current;
  return {
    async removeIfOwn() {
      if (await own()) await host.remove(lockPath);
    },
    async rewrite(text) {
      if (!(await own())) return false;
      await host.writeAtomic(lockPath, text);
      current = text;
      return true;
    },
  };
}

function handle(host: Host, lockPath: string, file: HeldFile, owner: LockOwner): LockHandle {
  let released = false;
  let beating: Promise<void> | undefined;
  const heartbeat = async () => {
    if (released || !file.rewrite) return;
    const text = JSON.stringify({ ...owner, heartbeatAt: host.now().toISOString() });
    // A failed refresh (a full disk for a moment) is retried by the next beat.
    await file.rewrite(text).catch(() => {});
  };
  const stop = host.repeat?.(owner.heartbeatMs ?? HEARTBEAT_MS, () => void (beating ??= heartbeat().finally(() => (beating = undefined))));
  return {
    path: lockPath,
    heartbeat,
    async release() {
      if (released) return;
      released = true;
      stop?.();
      await beating;
      // Only removes the lock if it is still ours (it may have been judged stale and taken over).
      await file.removeIfOwn().catch(() => {});
    },
  };
}
