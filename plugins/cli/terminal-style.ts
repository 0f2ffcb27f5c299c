import pc from 'picocolors';
import type { Style } from '../../core/index.ts';

/**
 * Whether to colour a stream. `--no-color` wins; then FORCE_COLOR (0 or false turns colour off, any
 * other value forces it on, also off a terminal: CI logs render ANSI); then NO_COLOR (no-color.org);
 * then only a terminal that is not `dumb`. FORCE_COLOR over NO_COLOR is Node's own precedence.
 */
export function colorEnabled(stream: { isTTY?: boolean }, env: Record<string, string | undefined>, argv: readonly string[]): boolean {
  if (argv.includes('--no-color')) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return !['0', 'false'].includes(force.toLowerCase());
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return Boolean(stream.isTTY) && env.TERM !== 'dumb';
}

export function createStyle(stream: NodeJS.WriteStream): Style {
  const c = pc.createColors(colorEnabled(stream, process.env, process.argv));
  return { bold: c.bold, dim: c.dim, red: c.red, green: c.green, yellow: c.yellow, cyan: c.cyan };
}

/** Whether this process colours the stream (so output sinks know which colour codes are sluice's own). */
export const colorsStream = (stream: NodeJS.WriteStream): boolean => colorEnabled(stream, process.env, process.argv);
