/**
 * A job's own signal that aborts when `parent` does. However many jobs follow one run's signal, the
 * run's signal has a single 'abort' listener: Node warns (MaxListenersExceededWarning) past ten, and
 * a run drives a job per requirement. Release the follower when its job ends.
 */
const followers = new WeakMap<AbortSignal, Set<AbortController>>();

export function followSignal(parent: AbortSignal): { signal: AbortSignal; release(): void } {
  const own = new AbortController();
  if (parent.aborted) {
    own.abort(parent.reason);
    return { signal: own.signal, release() {} };
  }
  let set = followers.get(parent);
  if (!set) {
    const live = new Set<AbortController>();
    followers.set(parent, live);
    parent.addEventListener(
      'abort',
      () => {
        for (const f of live) f.abort(parent.reason);
        live.clear();
      },
      { once: true },
    );
    set = live;
  }
  set.add(own);
  const live = set;
  return { signal: own.signal, release: () => void live.delete(own) };
}

/** Runs `job` with a follower of `parent`, released when it settles. */
export async function withFollower<T>(parent: AbortSignal, job: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const f = followSignal(parent);
  try {
    return await job(f.signal);
  } finally {
    f.release();
  }
}
