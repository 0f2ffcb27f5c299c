/**
 * Keeps secrets out of transcripts and --json output: values of environment variables whose
 * names look like secrets (`*_TOKEN`, `*_KEY`, `*_SECRET`, `*PASSWORD*`, ...) and strings shaped
 * like well-known API keys are replaced by `[REDACTED]` markers.
 */
const SECRET_NAME = /(?:^|_)(?:TOKEN|KEY|SECRET|PASSWORD|PASSWD|PASS|CREDENTIALS?|PRIVATE_KEY|API_KEY|AUTH)$|PASSWORD|SECRET/i;
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

export interface SecretRedactor {
  redact(text: string): string;
  /** The longest secret value known, so stream redaction knows how much to hold back. */
  readonly longest: number;
}

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

export function createSecretRedactor(env: Record<string, string | undefined>): SecretRedactor {
  const values = Object.entries(env)
    .filter(([name, value]) => value !== undefined && value.length >= MIN_SECRET_LENGTH && isSecretName(name))
    .map(([name, value]) => [name, value!] as const)
    // Longest first, so a secret that contains another is replaced whole.
    .sort((a, b) => b[1].length - a[1].length);
  const longest = Math.max(0, ...values.map(([, value]) => value.length));
  return {
    longest,
    redact(text) {
      let out = text;
      for (const [name, value] of values) if (out.includes(value)) out = out.split(value).join(`[REDACTED:${name}]`);
      for (const [label, shape] of KEY_SHAPES) out = out.replace(shape, `[REDACTED:${label}]`);
      return out;
    },
  };
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
