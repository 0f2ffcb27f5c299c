import { ExitCode, type ErrorCode, type ExitCodeValue } from './catalog.ts';
import { errorCodeEntry } from './error-codes.ts';
import { systemErrorAsCatalogued } from './system-error.ts';

export interface SluiceErrorDetails {
  /** What went wrong, in one line. Defaults to the catalog title. */
  message?: string;
  /** File the error is about, as the user would type it. */
  file?: string;
  /** Field inside the file, as a dotted path (`phases.build.status`). */
  field?: string;
  /** Plugin the error came from. */
  plugin?: string;
  /** Hook the error came from. */
  hook?: string;
  /** Overrides the catalog hint. */
  hint?: string;
  /** Extra data for --json output. */
  data?: Record<string, unknown>;
  cause?: unknown;
}

/** Marks sluice errors across copies of the module (a plugin bundling its own copy of sluice). */
const BRAND = Symbol.for('sluice.error');

/** What a code nobody declared (yet) reports: a usage error that points at the list. */
const UNDECLARED = { exit: ExitCode.usage, title: 'error code is in no catalog', hint: 'see `sluice errors` for the declared codes' } as const;

/**
 * The only error type sluice lets reach the user: a catalogued code plus where it happened. The code's
 * catalog entry (exit code, hint, title) is looked up when it is read, not when the error is made: a
 * module raising a plugin's code need not have loaded that plugin's catalog, only whoever prints it.
 */
export class SluiceError extends Error {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }

  readonly code: ErrorCode;
  readonly file?: string;
  readonly field?: string;
  readonly plugin?: string;
  readonly hook?: string;
  readonly data?: Record<string, unknown>;
  /** The message and hint given at the throw, if any (else the catalog's). */
  readonly #given: { message?: string; hint?: string };

  constructor(code: ErrorCode, details: SluiceErrorDetails = {}) {
    // No message for Error itself: `message` is read through the getter below.
    super(undefined, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'SluiceError';
    Object.defineProperty(this, BRAND, { value: true });
    this.code = code;
    this.#given = { message: details.message === undefined ? undefined : oneLine(details.message), hint: details.hint };
    this.file = details.file;
    this.field = details.field;
    this.plugin = details.plugin;
    this.hook = details.hook;
    this.data = details.data;
  }

  /** A code nobody declared (a typo, a plugin that forgot defineErrorCodes) still reports, as a usage error. */
  get exitCode(): ExitCodeValue {
    return errorCodeEntry(this.code)?.exit ?? UNDECLARED.exit;
  }

  get hint(): string {
    return this.#given.hint ?? errorCodeEntry(this.code)?.hint ?? UNDECLARED.hint;
  }

  /** What went wrong, in one line: the message given, else the catalog title. */
  get detail(): string {
    return this.#given.message ?? oneLine(errorCodeEntry(this.code)?.title ?? UNDECLARED.title);
  }

  /** The message and hint given at the throw, if any: what a wrapper passes on (the catalog's are looked up again). */
  get given(): { message?: string; hint?: string } {
    return { ...this.#given };
  }

  override get message(): string {
    return formatLine(this.code, this.detail, this);
  }

  toJSON(): Record<string, unknown> {
    return {
      code: this.code,
      message: this.message,
      exitCode: this.exitCode,
      hint: this.hint,
      ...(this.file === undefined ? {} : { file: this.file }),
      ...(this.field === undefined ? {} : { field: this.field }),
      ...(this.plugin === undefined ? {} : { plugin: this.plugin }),
      ...(this.hook === undefined ? {} : { hook: this.hook }),
      ...(this.data === undefined ? {} : { data: this.data }),
    };
  }
}

export function isSluiceError(value: unknown, code?: ErrorCode): value is SluiceError {
  return value instanceof SluiceError && (code === undefined || value.code === code);
}

/**
 * Wraps anything thrown into a SluiceError, keeping catalogued errors as they are. What the system
 * refused (a missing, special or oversized file, permission, read-only, disk full) gets its own code,
 * naming the file through `display` (the CLI shows it relative to the project).
 */
export function toSluiceError(
  error: unknown,
  fallback: ErrorCode = 'INTERNAL',
  details: SluiceErrorDetails = {},
  display: (path: string) => string = (p) => p,
): SluiceError {
  if (error instanceof SluiceError) return error;
  const system = systemErrorAsCatalogued(error);
  if (system)
    return new SluiceError(system.code, {
      ...details,
      file: details.file ?? (system.file === undefined ? undefined : display(system.file)),
      message: system.message,
      cause: error,
    });
  const message = error instanceof Error ? error.message : String(error);
  return new SluiceError(fallback, { ...details, message: details.message ?? message, cause: error });
}

function formatLine(code: ErrorCode, detail: string, d: Pick<SluiceErrorDetails, 'file' | 'field' | 'plugin' | 'hook'>): string {
  const where: string[] = [];
  if (d.file !== undefined) where.push(d.file);
  // A parse error's field is its position (`line 4`); the parser's message usually repeats it with the column.
  const position = d.field !== undefined && /^line \d+$/.test(d.field);
  if (d.field !== undefined && d.field !== '' && !(position && detail.includes(`(${d.field}, column`))) where.push(position ? d.field : `field ${d.field}`);
  if (d.plugin !== undefined) where.push(`plugin ${d.plugin}`);
  if (d.hook !== undefined) where.push(`hook ${d.hook}`);
  return where.length === 0 ? `${code}: ${detail}` : `${code}: ${where.join(', ')}: ${detail}`;
}

/** Errors are printed as one line; multi-line causes (YAML snippets) are folded. */
function oneLine(text: string): string {
  const first = text
    .split(/\r?\n/)
    .map((s) => s.trim())
    .filter(Boolean);
  const joined = first.slice(0, 1).join(' ');
  return joined.length > 400 ? `${joined.slice(0, 397)}...` : joined;
}
