import type { CatalogEntry } from './catalog.ts';

/**
 * Every error code sluice can report, with the plugin that owns it (Fastify's per-plugin error codes).
 * The kernel owns its catalog; each plugin declares its own codes next to its code with
 * `defineErrorCodes`. The table is process-wide (a plugin may bundle its own copy of sluice's core).
 */
export interface RegisteredErrorCode extends CatalogEntry {
  code: string;
  owner: string;
}

const KEY = Symbol.for('sluice.errorCodes');
const table: Map<string, RegisteredErrorCode> = ((globalThis as Record<symbol, unknown>)[KEY] ??= new Map()) as Map<string, RegisteredErrorCode>;

/**
 * Declares an owner's error codes and returns them as given (for `typeof` in a type augmentation).
 * Declaring a code another owner already declared is a programming error: codes are global.
 */
export function defineErrorCodes<const T extends Record<string, CatalogEntry>>(owner: string, codes: T): T {
  for (const [code, entry] of Object.entries(codes)) declare(owner, code, entry);
  return codes;
}

/**
 * What the kernel does with the codes a plugin says it raises (`ctx.registerErrorCodes`): codes made
 * with `defineErrorCodes` keep the owner they were declared with; others are declared under the plugin.
 */
export function registerErrorCodes(plugin: string, codes: Record<string, CatalogEntry>): void {
  for (const [code, entry] of Object.entries(codes)) {
    const known = table.get(code);
    if (known && known.exit === entry.exit && known.title === entry.title && known.hint === entry.hint) continue;
    declare(plugin, code, entry);
  }
}

function declare(owner: string, code: string, entry: CatalogEntry): void {
  const known = table.get(code);
  if (known && known.owner !== owner) throw new Error(`error code ${code} of ${owner} is already declared by ${known.owner}`);
  table.set(code, { exit: entry.exit, title: entry.title, hint: entry.hint, code, owner });
}

export const errorCodeEntry = (code: string): RegisteredErrorCode | undefined => table.get(code);

/** Every declared code, sorted by owner then code. */
export const listErrorCodes = (): RegisteredErrorCode[] =>
  [...table.values()].sort((a, b) => (a.owner === b.owner ? (a.code < b.code ? -1 : 1) : a.owner < b.owner ? -1 : 1));
