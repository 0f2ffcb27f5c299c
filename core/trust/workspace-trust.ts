import { SluiceError } from '../errors/sluice-error.ts';
import { RUN_BY } from './script-subjects.ts';
import { diffSubjects, type TrustChange, type TrustManifest, type TrustSubject } from './trust-subject.ts';

/** What the user trusted for one project, as kept in the trust store outside the project. */
export interface TrustRecord {
  hash: string;
  subjects: TrustSubject[];
  trustedAt: string;
}

/** The workspace's content compared with what the user trusted. */
export interface TrustReview {
  manifest: TrustManifest;
  /** `store`: the user ran `sluice trust`; `env`: the CI host set SLUICE_TRUSTED_HASH; `none`: neither. */
  via: 'store' | 'env' | 'none';
  trusted: boolean;
  /** Differences from the stored record (everything is `added` when there is none). */
  changes: TrustChange[];
}

/**
 * Decides whether project content may run. The kernel asks before it loads a config plugin, runs a
 * delegate with a configured command or a command gate; a refusal is WORKSPACE_UNTRUSTED (exit 2)
 * naming the file and what changed.
 */
export interface WorkspaceTrust {
  require(subjects: readonly TrustSubject[]): Promise<void>;
  review(): Promise<TrustReview>;
  /** Records the user's trust in this exact content (only the CLI's store can). */
  grant?(manifest: TrustManifest): Promise<void>;
  /** Forgets the project's trust; false when there was none. */
  revoke?(): Promise<boolean>;
  /** Where the trust is kept, for messages. */
  readonly storePath?: string;
}

export const TRUSTED_HASH_ENV = 'SLUICE_TRUSTED_HASH';

/** For embedders that build a kernel themselves: they decide what they load. The CLI never uses it. */
export const trustEverything: WorkspaceTrust = {
  async require() {},
  async review() {
    return { manifest: { hash: '', subjects: [] }, via: 'none', trusted: true, changes: [] };
  },
};

export interface WorkspaceTrustOptions {
  /** Everything in the workspace that runs code, read now (computed once per process). */
  manifest(): Promise<TrustManifest>;
  /** The stored record for this project, if any. */
  record(): Promise<TrustRecord | undefined>;
  /** SLUICE_TRUSTED_HASH as the CI host set it. */
  expectedHash?: string;
  grant?(manifest: TrustManifest): Promise<void>;
  revoke?(): Promise<boolean>;
  storePath?: string;
}

/**
 * A file a setting runs is named by the error's file, with the setting that runs it:
 * `ai.sh: run by delegates.shell, changed since you trusted it`.
 */
const isScript = (s: TrustSubject) => s.what.startsWith(RUN_BY);
const VERB = { added: 'is not trusted', changed: 'changed since you trusted it', removed: 'was removed since you trusted it' } as const;
const SCRIPT_VERB = { added: 'not trusted yet', changed: 'changed since you trusted it', removed: 'removed since you trusted it' } as const;
const describe = ({ kind, subject: s }: TrustChange) =>
  isScript(s) ? `${s.shows === s.file ? '' : `${s.shows}, `}${s.what}, ${SCRIPT_VERB[kind]}` : `${s.shows} ${VERB[kind]}`;
/** Whole-file subjects only say "something in it changed": name a specific one when there is one. */
const WHOLE_FILE = '(whole file)';
const sameSubject = (a: TrustSubject, b: TrustSubject) => a.file === b.file && a.what === b.what;

export function untrustedError(changes: readonly TrustChange[], via: TrustReview['via']): SluiceError {
  const first = changes.find((c) => c.subject.what !== WHOLE_FILE) ?? changes[0];
  const more = changes.length > 1 ? ` (and ${changes.length - 1} more change${changes.length > 2 ? 's' : ''})` : '';
  const message =
    via === 'env'
      ? `${TRUSTED_HASH_ENV} does not match this workspace${first ? `: ${describe(first)}` : ''}`
      : `${first ? describe(first) : 'the workspace is not trusted'}${more}`;
  return new SluiceError('WORKSPACE_UNTRUSTED', {
    file: first?.subject.file,
    field: first === undefined || first.subject.what === WHOLE_FILE || isScript(first.subject) ? undefined : first.subject.what,
    message,
    data: { changes: changes.map((c) => ({ kind: c.kind, file: c.subject.file, what: c.subject.what, shows: c.subject.shows })) },
  });
}

export function createWorkspaceTrust(o: WorkspaceTrustOptions): WorkspaceTrust {
  let reviewed: Promise<TrustReview> | undefined;
  const review = () =>
    (reviewed ??= (async (): Promise<TrustReview> => {
      const manifest = await o.manifest();
      const record = await o.record();
      const changes = diffSubjects(record?.subjects ?? [], manifest.subjects);
      if (o.expectedHash !== undefined && o.expectedHash !== '') return { manifest, via: 'env', trusted: o.expectedHash === manifest.hash, changes };
      // A workspace with nothing that runs code needs no trust.
      const trusted = manifest.subjects.length === 0 || (record !== undefined && record.hash === manifest.hash);
      return { manifest, via: record ? 'store' : 'none', trusted, changes };
    })());
  return {
    review,
    grant: o.grant,
    revoke: o.revoke,
    storePath: o.storePath,
    async require(subjects) {
      const r = await review();
      if (!r.trusted) {
        // Name first what this command was about to run (its setting, then the files it runs), then the rest.
        const wanted = (c: TrustChange) => subjects.some((s) => sameSubject(s, c.subject));
        const rank = (c: TrustChange) => (wanted(c) ? (isScript(c.subject) ? 1 : 0) : 2);
        const changes = [...r.changes].sort((a, b) => rank(a) - rank(b));
        throw untrustedError(changes.length > 0 ? changes : subjects.map((subject) => ({ kind: 'added' as const, subject })), r.via);
      }
      // The content about to run must be what was reviewed (a file changed since is refused too).
      for (const s of subjects) {
        if (r.manifest.subjects.some((m) => sameSubject(m, s) && m.hash === s.hash)) continue;
        const known = r.manifest.subjects.some((m) => sameSubject(m, s));
        throw untrustedError([{ kind: known ? 'changed' : 'added', subject: s }], r.via);
      }
    },
  };
}
