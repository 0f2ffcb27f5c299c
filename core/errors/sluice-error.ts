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

/** The only error type sluice lets reach the user: a catalogued code plus where it happened. */
export class SluiceError extends Error {
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }

  readonly code: ErrorCode;
  readonly exitCode: ExitCodeValue;
  readonly hint: string;
  readonly file?: string;
  readonly field?: string;
  readonly plugin?: string;
  readonly hook?: string;
  readonly data?: Record<string, unknown>;
  readonly detail: string;

  constructor(code: ErrorCode, details: SluiceErrorDetails = {}) {
    // A code whose owner never declared it (a plugin that forgot defineErrorCodes) still reports, as a usage error.
    const entry = errorCodeEntry(code) ?? { exit: ExitCode.usage, title: code, hint: 'see `sluice errors`' };
    const detail = oneLine(details.message ?? entry.title);
    super(formatLine(code, detail, details), details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'SluiceError';
    Object.defineProperty(this, BRAND, { value: true });
    this.code = code;
    this.exitCode = entry.exit;
    this.hint = details.hint ?? entry.hint;
    this.detail = detail;
    this.file = details.file;
    this.field = details.field;
    this.plugin = details.plugin;
    this.hook = details.hook;
    this.data = details.data;
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

function formatLine(code: ErrorCode, detail: string, d: SluiceErrorDetails): string {
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
