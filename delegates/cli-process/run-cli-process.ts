import type { DelegateAttempt, DelegateRunContext } from '../../core/index.ts';
import { createBoundedCapture } from './bounded-capture.ts';
import { meaningfulLine } from './failure-message.ts';
import { createLineSplitter } from './line-splitter.ts';

export interface CliProcessSpec {
  command: string;
  args: readonly string[];
  cwd: string;
  /** Written to stdin; without it stdin is /dev/null (some CLIs hang on an open stdin). */
  input?: string;
  env?: Record<string, string>;
  /** Called with every complete stdout line, as it arrives (JSONL formats). */
  onLine?(line: string): void;
  /** Bytes of stdout kept at each end for parsing and messages (default 4 MiB). */
  captureBytes?: number;
}

export interface CliProcessOutcome {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  cancelled: boolean;
  spawnError?: string;
  durationMs: number;
  /** Head and tail of stdout; `complete` when nothing was dropped. */
  stdout: { text: string; bytes: number; complete: boolean };
  /** The end of stderr, for error messages. */
  stderrTail: string;
  /** The start of stderr: where a CLI prints a usage error, before its usage listing. */
  stderrHead?: string;
  /** JSONL lines skipped for being longer than the line limit. */
  oversizeLines: number;
}

const DEFAULT_CAPTURE_BYTES = 4 * 1024 * 1024;
const MAX_LINE_BYTES = 8 * 1024 * 1024;
const STDERR_TAIL_BYTES = 16 * 1024;
const STDERR_HEAD_BYTES = 4 * 1024;

/**
 * Runs an AI CLI through the Host (no shell, own process group, wall clock, AbortSignal), streaming
 * every chunk to the transcript and `delegate:output`, and keeping only bounded parts in memory.
 */
export async function runCliProcess(spec: CliProcessSpec, ctx: DelegateRunContext): Promise<CliProcessOutcome> {
  const stdout = createBoundedCapture(spec.captureBytes ?? DEFAULT_CAPTURE_BYTES);
  const stderr = createBoundedCapture(STDERR_HEAD_BYTES, STDERR_TAIL_BYTES);
  const lines = spec.onLine ? createLineSplitter(spec.onLine, MAX_LINE_BYTES) : undefined;
  const graceSeconds = typeof ctx.settings.killGrace === 'number' ? ctx.settings.killGrace : undefined;
  const r = await ctx.host.spawn({
    command: spec.command,
    args: spec.args,
    cwd: spec.cwd,
    env: { ...ctx.settings.env, ...spec.env },
    ...(spec.input === undefined ? {} : { input: spec.input }),
    timeoutMs: ctx.timeoutMs,
    ...(graceSeconds === undefined ? {} : { killGraceMs: graceSeconds * 1000 }),
    signal: ctx.signal,
    onStdout(chunk) {
      ctx.output(chunk, 'stdout');
      stdout.push(chunk);
      lines?.push(chunk);
    },
    onStderr(chunk) {
      ctx.output(chunk, 'stderr');
      stderr.push(chunk);
    },
  });
  lines?.end();
  return {
    exitCode: r.exitCode,
    signal: r.signal,
    timedOut: r.timedOut,
    cancelled: r.cancelled,
    ...(r.spawnError === undefined ? {} : { spawnError: r.spawnError }),
    durationMs: r.durationMs,
    stdout: { text: stdout.text(), bytes: stdout.bytes, complete: stdout.complete },
    stderrTail: stderr.tail(2000).trim(),
    stderrHead: stderr.head(2000).trim(),
    oversizeLines: lines?.oversizeLines ?? 0,
  };
}

/**
 * The outcomes every CLI shares: could not start, cancelled, timed out. Returns undefined when the
 * process ran to its own end and the backend's parser has to judge the output.
 */
export function processFailure(name: string, p: CliProcessOutcome, timeoutMs: number): DelegateAttempt | undefined {
  const base = { exitCode: p.exitCode, text: '', durationMs: p.durationMs };
  if (p.spawnError !== undefined) return { ...base, status: 'error', error: `cannot start ${name}: ${p.spawnError}` };
  if (p.cancelled) return { ...base, status: 'cancelled', error: `${name} run was cancelled; its process group was killed` };
  if (p.timedOut)
    return { ...base, status: 'timeout', error: `${name} did not finish within ${Math.round(timeoutMs / 100) / 10} s; its process group was killed` };
  return undefined;
}

/** One line describing a non-zero exit, with the CLI's own error (stderr first, then an error on stdout). */
export function exitFailureMessage(name: string, p: CliProcessOutcome, detail?: string): string {
  const how = p.signal ? `was killed by ${p.signal}` : `exited with code ${p.exitCode}`;
  const why = detail ?? meaningfulLine(p.stderrTail) ?? meaningfulLine(p.stdout.complete ? p.stdout.text : p.stdout.text.slice(-4096));
  return why ? `${name} ${how}: ${why}` : `${name} ${how}`;
}

const clip = (line: string | undefined) => (line === undefined ? undefined : line.length > 300 ? `${line.slice(0, 297)}...` : line);
const nonEmptyLines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);

export const lastLine = (text: string): string | undefined => clip(nonEmptyLines(text).at(-1));
export const firstLine = (text: string): string | undefined => clip(nonEmptyLines(text)[0]);
