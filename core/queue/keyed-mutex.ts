/**
 * One-at-a-time execution per key, in submission order. Waiting costs no queue slot, so a
 * job waiting for its state file never blocks unrelated jobs.
 */
export interface KeyedMutex {
  run<T>(key: string, fn: () => Promise<T>): Promise<T>;
  idle(): Promise<void>;
}

export function createKeyedMutex(): KeyedMutex {
  const tails = new Map<string, Promise<void>>();
  return {
    run<T>(key: string, fn: () => Promise<T>): Promise<T> {
      const prev = tails.get(key) ?? Promise.resolve();
      const result = prev.then(fn);
      const tail = result.then(
        () => undefined,
        () => undefined,
      );
      tails.set(key, tail);
      // Drop the entry once nobody queued behind us, so keys do not accumulate.
      void tail.then(() => {
        if (tails.get(key) === tail) tails.delete(key);
      });
      return result;
    },
    async idle() {
      while (tails.size > 0) await Promise.all(tails.values());
    },
  };
}
