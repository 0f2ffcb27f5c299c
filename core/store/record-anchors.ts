import { SluiceError } from '../errors/sluice-error.ts';
import { sha256Hex } from '../hash/sha256-hex.ts';
import type { Host } from '../host/host.ts';
import { checkPrivateFile } from '../paths/private-file.ts';
import { userFolders } from '../paths/user-folders.ts';
import { macMatches, tampered, type ChainEntry } from './journal-chain.ts';

/**
 * What the person's machine keeps about each journal of records, outside every work tree, in sluice's
 * user state folder (which the OS sandbox hides from the agent and the guard protects):
 * - `record.key`: the per-user key every journal entry's `mac` is made with (0600, created on first use);
 * - `anchors/<hash of the journal's path>.json`: the journal's head (sequence and hash) after the last
 *   write sluice made here, so a journal cut short, put back from an old copy or deleted is seen.
 */
export interface Anchor {
  journal: string;
  seq: number;
  hash: string;
  /** Entries up to this sequence were accepted here unanchored (written elsewhere); 0 once a person anchored it. */
  from: number;
  at: string;
}

/** What a journal is, here: `verified` (chained to its anchor and keyed), or `unanchored` (no anchor on this machine). */
export type Anchoring = { state: 'verified'; from: number } | { state: 'unanchored' };

export const RECORD_KEY_FILE = 'record.key';
export const ANCHOR_DIR = 'anchors';

export const STATE_TAMPERED_HINT =
  'sluice wrote nothing. A person restores the files from version control (git restore) until they agree with the anchor; `sluice lifecycle recover` and `sluice anchor` refuse a journal shorter than its anchor, so neither can accept a rollback';
export const ROLLED_BACK_HINT =
  'sluice wrote nothing. A person puts back the newest journal (git restore / git log -- the journal); a journal shorter than its anchor is never accepted, not by recover and not by `sluice anchor`';

export interface RecordKeeper {
  /** The record key, created (0600) on first use. */
  key(): Promise<string>;
  /** The record key if this person has one already (reads never create it). */
  existingKey(): Promise<string | undefined>;
  anchorOf(journal: string): Promise<Anchor | null>;
  setAnchor(anchor: Anchor): Promise<void>;
  readonly folder: string;
}

const randomHex = (bytes: number) => Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, '0')).join('');

export function createRecordKeeper(host: Host): RecordKeeper {
  const folder = () => userFolders(host.env, host.accountHome).state;
  const keyPath = () => `${folder()}/${RECORD_KEY_FILE}`;
  const anchorPath = (journal: string) => `${folder()}/${ANCHOR_DIR}/${sha256Hex(journal).slice(0, 40)}.json`;
  let cached: string | undefined;
  async function existingKey(): Promise<string | undefined> {
    if (cached) return cached;
    const info = await checkPrivateFile(host, keyPath(), { what: 'the record key', secret: true });
    if (info === null) return undefined;
    const text = (await host.readText(keyPath(), { maxBytes: 1024 })).trim();
    if (!/^[0-9a-f]{64}$/.test(text))
      throw new SluiceError('PRIVATE_FILE_UNSAFE', { file: keyPath(), message: `the record key ${keyPath()} is not 64 hex digits` });
    return (cached = text);
  }
  return {
    get folder() {
      return folder();
    },
    existingKey,
    async key() {
      const have = await existingKey();
      if (have) return have;
      // Exclusive: two first writers agree on one key.
      await host.writePrivate(keyPath(), `${randomHex(32)}\n`, { exclusive: true });
      return (await existingKey())!;
    },
    async anchorOf(journal) {
      const path = anchorPath(journal);
      if ((await checkPrivateFile(host, path, { what: 'the record anchor' })) === null) return null;
      let raw: unknown;
      try {
        raw = JSON.parse(await host.readText(path, { maxBytes: 64 * 1024 }));
      } catch {
        throw new SluiceError('STATE_CORRUPT', { file: path, message: `the record anchor ${path} is not JSON` });
      }
      const a = raw as Anchor;
      if (!a || typeof a.seq !== 'number' || typeof a.hash !== 'string' || typeof a.from !== 'number')
        throw new SluiceError('STATE_CORRUPT', { file: path, message: `the record anchor ${path} lacks seq, hash or from` });
      return a;
    },
    async setAnchor(anchor) {
      await host.writePrivate(anchorPath(anchor.journal), `${JSON.stringify(anchor)}\n`);
    },
  };
}

/**
 * Judges a journal's entries against this machine's anchor. Everything up to the anchored entry is
 * fixed by its hash (the chain links each line to the one before); every later entry must carry a mac
 * made with this person's key (a crash after the journal write, before the anchor's, leaves such entries).
 * JOURNAL_ROLLED_BACK: the journal is shorter than its anchor (cut, or an old copy put back) or gone.
 * STATE_TAMPERED: the anchored entry differs (rewritten, reordered, a recomputed chain), or a later one is not keyed.
 */
export function judgeAnchor(
  chain: { count: number; entry(index: number): ChainEntry } | null,
  anchor: Anchor | null,
  key: string | undefined,
  shown: string,
  o: { acceptUnkeyedTail?: boolean } = {},
): Anchoring {
  if (anchor === null) return { state: 'unanchored' };
  const count = chain?.count ?? 0;
  if (count < anchor.seq) {
    throw new SluiceError('JOURNAL_ROLLED_BACK', {
      file: shown,
      message:
        chain === null
          ? `the journal is missing, but this machine anchored it at entry ${anchor.seq} (${anchor.at}): state and journal were deleted`
          : `the journal has ${count} entries, but this machine anchored it at entry ${anchor.seq} (${anchor.at}): it was cut short or an older copy was put back`,
      hint: ROLLED_BACK_HINT,
    });
  }
  if (anchor.seq > 0 && chain!.entry(anchor.seq - 1).hash !== anchor.hash)
    throw tampered(
      shown,
      `entry ${anchor.seq} is not the one this machine anchored (the journal was rewritten, reordered or its chain recomputed)`,
      STATE_TAMPERED_HINT,
    );
  // `sluice anchor` (a person) may accept entries after the anchored one that another machine keyed (a teammate's, pulled with git).
  for (let i = anchor.seq; i < count; i++) {
    if (key !== undefined && macMatches(key, chain!.entry(i))) continue;
    if (o.acceptUnkeyedTail) return { state: 'unanchored' };
    throw tampered(
      shown,
      `entry ${i + 1} is not keyed with this person's record key (written outside sluice, a recomputed chain, or on another machine)`,
      `${STATE_TAMPERED_HINT}. Entries another machine wrote after this one's anchor (a teammate's, pulled with git) are accepted by a person with \`sluice anchor\` after checking them`,
    );
  }
  return { state: 'verified', from: anchor.from };
}
