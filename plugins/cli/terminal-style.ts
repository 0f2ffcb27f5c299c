import pc from 'picocolors';
import type { Style } from '../../core/index.ts';

/** Colour only for a terminal that wants it: picocolors honours NO_COLOR, FORCE_COLOR and --no-color. */
export function createStyle(stream: NodeJS.WriteStream): Style {
  const enabled = colourEnabled(stream);
  const c = pc.createColors(enabled);
  return { bold: c.bold, dim: c.dim, red: c.red, green: c.green, yellow: c.yellow, cyan: c.cyan };
}

export function colourEnabled(stream: NodeJS.WriteStream): boolean {
  return pc.isColorSupported && Boolean(stream.isTTY) && !('NO_COLOR' in process.env && process.env.NO_COLOR !== '');
}
