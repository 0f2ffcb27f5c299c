import { relative } from 'node:path';
import { createSecretRedactor, isInside, jsonSafe, terminalSafe, toSluiceError, type SluiceError } from '../../core/index.ts';
import { colorsStream, createStyle } from './terminal-style.ts';

/**
 * Prints an error the way every sluice command does: one line on stderr (plus a hint), or a JSON
 * document. Messages may quote a delegate's output, so secrets are redacted here too.
 */
export function printError(error: unknown, json: boolean, redact: (text: string) => string = createSecretRedactor(process.env).redact, root?: string): number {
  const shown = (path: string) => (root !== undefined && isInside(root, path) && path !== root ? relative(root, path) : path);
  const e: SluiceError = toSluiceError(error, 'INTERNAL', {}, shown);
  if (json) {
    process.stdout.write(`${jsonSafe(redact(JSON.stringify({ ok: false, error: e.toJSON() }, null, 2)))}\n`);
  } else {
    const s = createStyle(process.stderr);
    // Messages quote paths, names and file content: escape anything that could steer the terminal.
    process.stderr.write(terminalSafe(redact(`${s.red('error')} ${e.message}\n${s.dim(`hint: ${e.hint}`)}\n`), { keepStyle: colorsStream(process.stderr) }));
  }
  if (process.env.SLUICE_DEBUG && e.cause instanceof Error) process.stderr.write(`${e.cause.stack}\n`);
  return e.exitCode;
}
