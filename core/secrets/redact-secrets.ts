import { isSluiceCredential } from './sluice-credentials.ts';
/**
 * Keeps secrets out of transcripts, state files and --json output: values of environment variables
 * whose names mark a secret (`*_TOKEN`, `*_KEY`, `*SECRET*`, `*PASSWORD*`, `NPM_AUTHTOKEN`, ...)
 * in every form they take in output (as is, JSON-escaped, URL-encoded), passwords in URLs
 * (`postgres://user:pw@host`) and strings shaped like well-known API keys are replaced by
 * `[REDACTED:...]` markers.
 */
/** Name words that mark a secret wherever they stand (names split at `_`, `-`, `.` and camelCase humps). */
const SECRET_WORDS = new Set([
  'TOKEN',
  'TOKENS',
  'APIKEY',
  'SECRET',
  'SECRETS',
  'PASSWORD',
  'PASSWD',
  'PASSPHRASE',
  'CREDENTIAL',
  'CREDENTIALS',
  'CREDS',
  'AUTHTOKEN',
  'COOKIE',
  'DSN',
  'WEBHOOK',
]);
/** Words that mark a secret only as the name's last word (`SIGNING_KEY`, `SMTP_PASS`, `GH_PAT`), not in `KEY_TYPE` or `AUTH_PROVIDER`. */
const SECRET_LAST_WORDS = new Set(['KEY', 'KEYS', 'PASS', 'AUTH', 'PAT']);
/** Substrings that mark a secret wherever they appear in a name (`GITHUBTOKEN`, `DBPASSWORD`). */
const SECRET_PARTS = /TOKEN|SECRET|PASSW|CREDENTIAL|APIKEY|PRIVATEKEY|AUTHKEY/i;
/** Names that match a rule above but never hold a secret. */
const NOT_SECRET = new Set(['SSH_AUTH_SOCK', 'GPG_AGENT_INFO', 'SLUICE_TRUSTED_HASH']);
/** Values shorter than this are too likely to be ordinary words or numbers to replace safely. */
const MIN_SECRET_LENGTH = 8;

const KEY_SHAPES: [string, RegExp][] = [
  ['anthropic-key', /\bsk-ant-[A-Za-z0-9_-]{20,}/g],
  ['openai-key', /\bsk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{20,}/g],
  ['github-token', /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/g],
  ['aws-access-key', /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g],
  ['google-api-key', /\bAIza[0-9A-Za-z_-]{35}\b/g],
  ['slack-token', /\bxox[abposr]-[0-9A-Za-z-]{10,}/g],
  ['stripe-key', /\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,}/g],
  ['private-key', /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g],
  ['bearer-token', /\bBearer\s+[A-Za-z0-9._~+/-]{20,}=*/g],
];

/**
 * The password of a URL's userinfo (`scheme://user:PASSWORD@host`). The user name stays: it
 * tells the reader which credential it was. Stops at whitespace, quotes and the last `@` before the host.
 */
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:@/"'<>]*:)([^\s"'<>/]+)(@[^\s@/"'<>]+)/gi;

export interface SecretRedactor {
  redact(text: string): string;
  /** The longest secret value known, so stream redaction knows how much to hold back. */
  readonly longest: number;
}

/** Splits `npmAuthToken`, `DB_PASSWORD`, `my-api.key` into upper-case words. */
const nameWords = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .split(/[_\-.]+/)
    .filter(Boolean)
    .map((w) => w.toUpperCase());

export function isSecretName(name: string): boolean {
  if (NOT_SECRET.has(name.toUpperCase())) return false;
  const words = nameWords(name);
  return SECRET_PARTS.test(name) || words.some((w) => SECRET_WORDS.has(w)) || SECRET_LAST_WORDS.has(words[words.length - 1] ?? '');
}

/** The forms a value takes in output: as is, inside a JSON string (once and twice), URL-encoded. */
function outputForms(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1);
  const forms = new Set([value, json, JSON.stringify(json).slice(1, -1), encodeURIComponent(value)]);
  return [...forms].filter((f) => f.length >= MIN_SECRET_LENGTH);
}

export function createSecretRedactor(env: Record<string, string | undefined>): SecretRedactor {
  const values = Object.entries(env)
    .filter(([name, value]) => value !== undefined && value.length >= MIN_SECRET_LENGTH && (isSecretName(name) || isSluiceCredential(name)))
    .flatMap(([name, value]) => outputForms(value!).map((form) => [name, form] as const))
    // Longest first, so a secret that contains another is replaced whole.
    .sort((a, b) => b[1].length - a[1].length);
  const longest = Math.max(0, ...values.map(([, value]) => value.length));
  return {
    longest,
    redact(text) {
      let out = text;
      for (const [name, value] of values) if (out.includes(value)) out = out.split(value).join(`[REDACTED:${name}]`);
      for (const [label, shape] of KEY_SHAPES) out = out.replace(shape, `[REDACTED:${label}]`);
      return out.replace(URL_PASSWORD, (whole, head: string, password: string, host: string) =>
        password.startsWith('[REDACTED') ? whole : `${head}[REDACTED:url-password]${host}`,
      );
    },
  };
}

/** One-shot redaction of a text with the secrets of an environment (for text about to be stored). */
export function redactSecrets(text: string, env: Record<string, string | undefined>): string {
  return createSecretRedactor(env).redact(text);
}

/**
 * Redacts a stream of text chunks as they arrive. Complete secrets are replaced at once; only what
 * could still be the beginning of one is held back until the next chunk (or the end): the last
 * `longest` characters (an environment value cut in two), a trailing run of key characters (an API
 * key still growing) and an unfinished PEM block.
 */
export function createStreamRedactor(redactor: SecretRedactor): { push(text: string): string; flush(): string } {
  let pending = '';
  return {
    push(text) {
      pending = redactor.redact(pending + text);
      const run = /[A-Za-z0-9_\-+/=.~]*$/.exec(pending.slice(-MAX_HELD_RUN))?.[0].length ?? 0;
      let cut = pending.length - Math.max(run, redactor.longest);
      // A complete private key is already redacted, so a BEGIN still here may be the start of one.
      const begin = pending.lastIndexOf('-----BEGIN ', cut);
      if (begin >= 0 && pending.length - begin < MAX_HELD_PEM) cut = Math.min(cut, begin);
      if (cut <= 0) return '';
      const ready = pending.slice(0, cut);
      pending = pending.slice(cut);
      return ready;
    },
    flush() {
      const rest = redactor.redact(pending);
      pending = '';
      return rest;
    },
  };
}

/** Keys longer than this are not expected; a longer run is let through in pieces. */
const MAX_HELD_RUN = 4096;
const MAX_HELD_PEM = 65_536;

/**
 * `delegates.<name>.env` values from sluice.config, named as the variable (or `<backend>.<name>` when
 * two backends set one name differently): secrets every output redacts beside the environment's.
 */
export function configuredSecrets(config: { delegates?: Record<string, { env?: Record<string, string> }> }): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [backend, settings] of Object.entries(config.delegates ?? {})) {
    for (const [name, value] of Object.entries(settings.env ?? {})) out[name in out && out[name] !== value ? `${backend}.${name}` : name] = value;
  }
  return out;
}
