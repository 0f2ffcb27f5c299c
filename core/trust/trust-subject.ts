/**
 * What workspace trust is about: each thing in the project that would make sluice run code or a
 * command (a config plugin, a delegate's configured command, a profile's command gate) is a
 * subject, identified by its file and field and fingerprinted by a hash of the content that runs.
 */
export interface TrustSubject {
  /** The file it comes from, as the user would type it (`sluice.config.yaml`). */
  file: string;
  /** The field inside that file (`plugins[0]`, `delegates.shell`, `sluice.gates.lint`). */
  what: string;
  /** What would run, for people: a plugin path, a command line. */
  shows: string;
  /** `sha256:<hex>` of the content that runs. */
  hash: string;
}

/** Every subject of a workspace and one hash over all of them (what `SLUICE_TRUSTED_HASH` names). */
export interface TrustManifest {
  hash: string;
  subjects: TrustSubject[];
}

/** One difference between what was trusted and what is there now. */
export interface TrustChange {
  kind: 'added' | 'changed' | 'removed';
  subject: TrustSubject;
}

const hex = (bytes: ArrayBuffer) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('');

/** `sha256:<hex>` of text (UTF-8) or bytes, through Web Crypto (so core stays Deno-compatible). */
export async function sha256(data: string | Uint8Array): Promise<string> {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  return `sha256:${hex(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>))}`;
}

/** JSON with object keys sorted, so the same settings always hash the same. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

const keyOf = (s: Pick<TrustSubject, 'file' | 'what'>) => `${s.file}\u0000${s.what}`;

/** Sorts the subjects and hashes them together (file, field and content hash of each). */
export async function makeManifest(subjects: readonly TrustSubject[]): Promise<TrustManifest> {
  const sorted = [...subjects].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
  const hash = await sha256(sorted.map((s) => `${s.file}\u0000${s.what}\u0000${s.hash}\n`).join(''));
  return { hash, subjects: sorted };
}

/** What differs between the trusted subjects and the current ones, in manifest order. */
export function diffSubjects(trusted: readonly TrustSubject[], now: readonly TrustSubject[]): TrustChange[] {
  const before = new Map(trusted.map((s) => [keyOf(s), s]));
  const changes: TrustChange[] = [];
  for (const s of now) {
    const old = before.get(keyOf(s));
    if (!old) changes.push({ kind: 'added', subject: s });
    else if (old.hash !== s.hash) changes.push({ kind: 'changed', subject: s });
    before.delete(keyOf(s));
  }
  for (const s of before.values()) changes.push({ kind: 'removed', subject: s });
  return changes;
}
