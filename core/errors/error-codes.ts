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

/** Owner prefixes of plugins outside sluice (`ACME` for `ACME_*`), process-wide like the codes. */
const PREFIX_KEY = Symbol.for('sluice.errorPrefixes');
const prefixes: Map<string, string> = ((globalThis as Record<symbol, unknown>)[PREFIX_KEY] ??= new Map()) as Map<string, string>;

/** Plugins shipped with sluice (`sluice:*`) keep their unprefixed codes; every other plugin prefixes its own. */
export const isBuiltinPlugin = (name: string): boolean => name.startsWith('sluice:');
const isSluiceOwner = (owner: string) => owner === 'sluice' || isBuiltinPlugin(owner);

/** Why a plugin's codes cannot be registered: which rule they break, as one line naming the plugins involved. */
export interface ErrorCodeProblem {
  kind: 'prefix' | 'collision';
  message: string;
  field: string;
}

/**
 * What the kernel does with the codes a plugin says it raises (the `errorCodes` field, or
 * `ctx.registerErrorCodes`): codes made with `defineErrorCodes` keep the owner they were declared with;
 * others are declared under the plugin. A plugin outside sluice must give an `errorPrefix` that no other
 * plugin owns, and every code of it starts with that prefix and `_`. Returns the problem instead of
 * registering anything when one of the codes breaks a rule.
 */
export function registerErrorCodes(plugin: string, codes: Record<string, CatalogEntry>, prefix?: string): ErrorCodeProblem | undefined {
  const problem = checkCodes(plugin, codes, prefix);
  if (problem) return problem;
  if (prefix !== undefined) prefixes.set(prefix, plugin);
  for (const [code, entry] of Object.entries(codes)) {
    if (sameEntry(table.get(code), entry)) continue;
    declare(plugin, code, entry);
  }
  return undefined;
}

function checkCodes(plugin: string, codes: Record<string, CatalogEntry>, prefix: string | undefined): ErrorCodeProblem | undefined {
  const names = Object.keys(codes);
  if (prefix !== undefined) {
    // A prefix is another plugin's once it declared it, and sluice's where its own codes begin so (STATE_, LIFECYCLE_).
    const owner = prefixes.get(prefix) ?? [...table.values()].find((e) => isSluiceOwner(e.owner) && e.code.startsWith(`${prefix}_`))?.owner;
    if (owner !== undefined && owner !== plugin)
      return { kind: 'collision', field: 'errorPrefix', message: `error code prefix ${prefix} of plugin ${plugin} is already owned by plugin ${owner}` };
  }
  if (!isBuiltinPlugin(plugin) && names.length > 0) {
    if (prefix === undefined)
      return { kind: 'prefix', field: 'errorPrefix', message: `plugin ${plugin} declares error codes (${names[0]}) without an errorPrefix` };
    const stray = names.find((code) => !code.startsWith(`${prefix}_`));
    if (stray !== undefined)
      return { kind: 'prefix', field: `errorCodes.${stray}`, message: `error code ${stray} of plugin ${plugin} does not start with its prefix ${prefix}_` };
  }
  for (const [code, entry] of Object.entries(codes)) {
    const known = table.get(code);
    if (known && known.owner !== plugin && !sameEntry(known, entry))
      return { kind: 'collision', field: `errorCodes.${code}`, message: `error code ${code} of plugin ${plugin} is already owned by plugin ${known.owner}` };
  }
  return undefined;
}

const sameEntry = (known: CatalogEntry | undefined, entry: CatalogEntry) =>
  known !== undefined && known.exit === entry.exit && known.title === entry.title && known.hint === entry.hint;

function declare(owner: string, code: string, entry: CatalogEntry): void {
  const known = table.get(code);
  if (known && known.owner !== owner) throw new Error(`error code ${code} of ${owner} is already declared by ${known.owner}`);
  table.set(code, { exit: entry.exit, title: entry.title, hint: entry.hint, code, owner });
}

export const errorCodeEntry = (code: string): RegisteredErrorCode | undefined => table.get(code);

/** Every declared code, sorted by owner then code. */
export const listErrorCodes = (): RegisteredErrorCode[] =>
  [...table.values()].sort((a, b) => (a.owner === b.owner ? (a.code < b.code ? -1 : 1) : a.owner < b.owner ? -1 : 1));
