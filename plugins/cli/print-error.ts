import { toSluiceError, type SluiceError } from '../../core/index.ts';
import { createStyle } from './terminal-style.ts';

/** Prints an error the way every sluice command does: one line on stderr (plus a hint), or a JSON document. */
export function printError(error: unknown, json: boolean): number {
  const e: SluiceError = toSluiceError(error);
  if (json) {
    process.stdout.write(`${JSON.stringify({ ok: false, error: e.toJSON() }, null, 2)}\n`);
  } else {
    const s = createStyle(process.stderr);
    process.stderr.write(`${s.red('error')} ${e.message}\n${s.dim(`hint: ${e.hint}`)}\n`);
  }
  if (process.env.SLUICE_DEBUG && e.cause instanceof Error) process.stderr.write(`${e.cause.stack}\n`);
  return e.exitCode;
}
