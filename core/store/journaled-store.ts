import { SluiceError } from '../errors/sluice-error.ts';
import type { Host } from '../host/host.ts';
import type { JobQueue } from '../queue/job-queue.ts';
import { acquireLock } from './file-lock.ts';
import { appendLines, chainNext, parseChain, scanChain, type ChainEntry } from './journal-chain.ts';
import { createRecordKeeper, judgeAnchor, type Anchor, type Anchoring, type RecordKeeper } from './record-anchors.ts';

/** One journal of records: its file, its lock, and the rules each entry keeps (checked on replay and on append alike). */
export interface JournalSpec {
  path: string;
  /** Default `<path>.lock`; the SDLC history shares the lock of state.yaml, which the reference's scripts do not take. */
  lockPath?: string;
  /** Throws (STATE_TAMPERED for a replayed entry, INVARIANT_VIOLATED for a new one) when an entry breaks the records' rules. */
  check?(entry: ChainEntry, where: string, before: ChainEntry | undefined, isNew: boolean): void;
  purpose?: string;
  /**
   * Write the cache before the journal: for a cache the journal cannot rebuild (state.yaml, whose
   * entries hold only what a write added), a crash then leaves a cache one write ahead, which the
   * reader takes as history written outside sluice, never a journal one write ahead of its cache.
   */
  cacheFirst?: boolean;
  /**
   * Verify it line by line and keep only the anchored entry and those after (`count` and `last` say the
   * rest); `entries` is then parsed again on first use. For a journal read mostly for its head (the SDLC
   * history, 10,000 entries and more); a journal whose every entry is used keeps them (the default).
   */
  headOnly?: boolean;
}

export interface LoadedJournal {
  path: string;
  text: string;
  /** How many entries, and the last: what a write and the state's check need, without holding every entry. */
  count: number;
  last: ChainEntry | undefined;
  /** Every entry, parsed on first use (the text was verified when it was loaded). */
  readonly entries: ChainEntry[];
  anchoring: Anchoring;
  anchor: Anchor | null;
}

/** What an append adds: entry bodies (everything but seq, prev, hash and mac) and a value for the caller. */
export interface AppendPlan<T> {
  entries: Record<string, unknown>[];
  result: T;
}

export interface AppendOutcome<T> {
  current: LoadedJournal | null;
  appended: ChainEntry[];
  result: T | undefined;
}

export interface JournaledStore {
  readonly keeper: RecordKeeper;
  /** The journal, chained, checked and judged against its anchor; null when it does not exist (and was never anchored here). */
  load(spec: JournalSpec, options?: { acceptUnkeyedTail?: boolean }): Promise<LoadedJournal | null>;
  /**
   * The one write path of records: lock → load and verify (chain, rules, anchor) → `compute` (no side
   * effects; it may read the state file it caches; undefined: nothing to append; a SluiceError refuses) → each new entry checked by the same rules →
   * append, keyed → move the anchor → `cache` (write the state file that caches the journal).
   */
  append<T>(
    spec: JournalSpec,
    compute: (current: LoadedJournal | null) => AppendPlan<T> | undefined | Promise<AppendPlan<T> | undefined>,
    cache?: (current: LoadedJournal | null, appended: ChainEntry[], result: T | undefined) => Promise<void>,
  ): Promise<AppendOutcome<T>>;
  /**
   * A person's acceptance of a journal this machine has no anchor for (a fresh clone, another machine):
   * anchors its head. A journal that contradicts an anchor it has is refused as on every read.
   */
  anchor(spec: JournalSpec, expect?: { seq: number; hash: string }): Promise<{ before: Anchor | null; after: Anchor; entries: number } | null>;
  /**
   * Takes a longer copy of the journal that an authenticated source wrote (a worker's signed checkpoint):
   * under the lock, only when the local journal is a prefix of it; checked, written, anchored at its head.
   * Returns false (nothing written) when the local journal is not a prefix.
   */
  extend(spec: JournalSpec, text: string, cache?: () => Promise<void>): Promise<boolean>;
}

/** A journal's text as verified, with the entries kept from `keptFrom` on. */
interface Verified {
  text: string;
  count: number;
  last: ChainEntry | undefined;
  kept: ChainEntry[];
  keptFrom: number;
}

function loaded(spec: JournalSpec, shown: string, chain: Verified, anchoring: Anchoring, anchor: Anchor | null): LoadedJournal {
  let all: ChainEntry[] | undefined = chain.keptFrom === 0 ? chain.kept : undefined;
  return {
    path: spec.path,
    text: chain.text,
    count: chain.count,
    last: chain.last,
    anchoring,
    anchor,
    get entries() {
      // The same checks again: a spec's check may note what it read about each entry (the lifecycle's states).
      all ??= parseChain(chain.text, shown, spec.check && ((e, w, b) => spec.check!(e, w, b, false)));
      return all;
    },
  };
}

export interface JournaledStoreOptions {
  host: Host;
  queue?: Pick<JobQueue, 'exclusive'>;
  lockWaitMs?: number;
  display?(path: string): string;
}

export function createJournaledStore(options: JournaledStoreOptions): JournaledStore {
  const { host } = options;
  const display = options.display ?? ((p: string) => p);
  const keeper = createRecordKeeper(host);
  const exclusive = <T>(key: string, fn: () => Promise<T>) => (options.queue ? options.queue.exclusive(key, fn) : fn());
  // A command that reads a journal several times (check, then write under the lock) verifies it once.
  const verified = new Map<string, Verified>();

  /** The anchor key of a journal: its real folder, so a symlinked or relative route names the same journal. */
  async function identity(path: string): Promise<string> {
    const cut = path.lastIndexOf('/');
    try {
      return `${await host.realpath(path.slice(0, cut))}${path.slice(cut)}`;
    } catch {
      return path;
    }
  }

  async function readText(path: string): Promise<string | null> {
    try {
      return await host.readText(path);
    } catch (error) {
      if ((await host.lstat(path)) === null) return null;
      throw error;
    }
  }

  async function load(spec: JournalSpec, o: { acceptUnkeyedTail?: boolean } = {}): Promise<LoadedJournal | null> {
    const shown = display(spec.path);
    // The anchor before the journal: a writer moves the anchor after the journal, so a reader never sees an anchor ahead of the journal it read.
    const anchor = await keeper.anchorOf(await identity(spec.path));
    const text = await readText(spec.path);
    let chain: Verified | null = null;
    if (text !== null) {
      const seen = verified.get(spec.path);
      // Entries before the anchored one are fixed by its hash: only it and the ones after are kept (for their macs).
      const keepFrom = spec.headOnly ? Math.max(0, (anchor?.seq ?? 1) - 1) : 0;
      if (seen && seen.text === text && seen.keptFrom <= keepFrom) chain = seen;
      else {
        const scan = scanChain(text, shown, spec.check && ((e, w, b) => spec.check!(e, w, b, false)), keepFrom);
        chain = { text, count: scan.count, last: scan.last, kept: scan.kept, keptFrom: keepFrom };
      }
      verified.set(spec.path, chain);
    }
    const key = anchor === null ? undefined : await keeper.existingKey();
    const keptAt = chain;
    const anchoring = judgeAnchor(keptAt && { count: keptAt.count, entry: (i: number) => keptAt.kept[i - keptAt.keptFrom] }, anchor, key, shown, o);
    if (text === null) return null;
    return loaded(spec, shown, chain!, anchoring, anchor);
  }

  async function withLock<T>(spec: JournalSpec, fn: () => Promise<T>): Promise<T> {
    const lockPath = spec.lockPath ?? `${spec.path}.lock`;
    return exclusive(`journal:${spec.path}`, async () => {
      const lock = await acquireLock(host, lockPath, { waitMs: options.lockWaitMs, purpose: spec.purpose, display: display(spec.path), keepOpen: true });
      try {
        return await fn();
      } finally {
        await lock.release();
      }
    });
  }

  return {
    keeper,
    load,
    append(spec, compute, cache) {
      return withLock(spec, async () => {
        const current = await load(spec);
        const plan = await compute(current);
        if (!plan || plan.entries.length === 0) {
          await cache?.(current, [], plan?.result);
          return { current, appended: [], result: plan?.result };
        }
        const key = await keeper.key();
        const appended: ChainEntry[] = [];
        let last = current?.last;
        for (const [i, body] of plan.entries.entries()) {
          const entry = chainNext(last, body, key) as ChainEntry;
          spec.check?.(entry, `new entry ${i + 1}`, last, true);
          appended.push(entry);
          last = entry;
        }
        const text = current?.text ?? '';
        if (spec.cacheFirst) await cache?.(current, appended, plan.result);
        await host.mkdir(spec.path.slice(0, spec.path.lastIndexOf('/')));
        await host.writeAtomic(spec.path, appendLines(text, appended));
        const head = appended.at(-1)!;
        const accepted = current === null ? 0 : current.anchoring.state === 'verified' ? current.anchoring.from : current.count;
        await keeper.setAnchor({
          journal: await identity(spec.path),
          seq: head.seq,
          hash: head.hash,
          from: accepted,
          at: String(head.at ?? new Date().toISOString()),
        });
        const count = (current?.count ?? 0) + appended.length;
        verified.set(
          spec.path,
          spec.headOnly
            ? { text: appendLines(text, appended), count, last: head, kept: [head], keptFrom: count - 1 }
            : { text: appendLines(text, appended), count, last: head, kept: [...(current?.entries ?? []), ...appended], keptFrom: 0 },
        );
        if (!spec.cacheFirst) await cache?.(current, appended, plan.result);
        return { current, appended, result: plan.result };
      });
    },
    extend(spec, text, cache) {
      return withLock(spec, async () => {
        const current = await load(spec);
        if (current && !text.startsWith(current.text)) return false;
        const entries = parseChain(text, display(spec.path), spec.check && ((e, w, b) => spec.check!(e, w, b, false)));
        await host.mkdir(spec.path.slice(0, spec.path.lastIndexOf('/')));
        await host.writeAtomic(spec.path, text);
        verified.set(spec.path, { text, count: entries.length, last: entries.at(-1), kept: entries, keptFrom: 0 });
        const head = entries.at(-1);
        if (head) {
          const from = current?.anchoring.state === 'verified' ? current.anchoring.from : (current?.count ?? 0);
          await keeper.setAnchor({ journal: await identity(spec.path), seq: head.seq, hash: head.hash, from, at: new Date(host.now()).toISOString() });
        }
        await cache?.();
        return true;
      });
    },
    anchor(spec, expect) {
      return withLock(spec, async () => {
        const current = await load(spec, { acceptUnkeyedTail: true });
        if (current === null) return null;
        const head = current.last;
        if (!head) throw new SluiceError('STATE_TAMPERED', { file: display(spec.path), message: 'the journal is empty: there is nothing to anchor' });
        // A person accepted one head (a signed statement): a journal that moved since is not what they accepted.
        if (expect && (head.seq !== expect.seq || head.hash !== expect.hash))
          throw new SluiceError('ANCHOR_NEEDS_PERSON', {
            file: display(spec.path),
            message: `the journal's head is entry ${head.seq} (${head.hash.slice(0, 12)}), not the entry ${expect.seq} (${expect.hash.slice(0, 12)}) that was accepted: nothing was anchored`,
          });
        const after: Anchor = { journal: await identity(spec.path), seq: head.seq, hash: head.hash, from: 0, at: new Date(host.now()).toISOString() };
        await keeper.setAnchor(after);
        return { before: current.anchor, after, entries: current.count };
      });
    },
  };
}
