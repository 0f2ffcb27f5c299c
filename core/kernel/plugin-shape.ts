import { SluiceError } from '../errors/sluice-error.ts';
import type { PluginDefinition } from '../plugin/types.ts';

/**
 * Checks that a value is a plugin description (`definePlugin({...})`) before anything of it is used:
 * one line naming the plugin and the field that is wrong. Plugins from a config are plain JavaScript,
 * so nothing about their shape is taken on trust.
 */
export function checkPluginShape(value: unknown, source: string): PluginDefinition {
  const p = value as Record<string, unknown> | undefined;
  if (!p || typeof p !== 'object' || typeof p.name !== 'string' || p.name === '') {
    throw new SluiceError('PLUGIN_INVALID', { plugin: source, message: `${source} does not export a plugin (definePlugin({ name, ... }))` });
  }
  const name = p.name;
  const bad = (field: string, what: string): never => {
    throw new SluiceError('PLUGIN_INVALID', { plugin: name, field, message: `${field} ${what}` });
  };
  const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
  const isFunction = (x: unknown) => typeof x === 'function';
  if (p.setup !== undefined && !isFunction(p.setup)) bad('setup', 'must be a function');
  if (p.enforce !== undefined && p.enforce !== 'pre' && p.enforce !== 'post') bad('enforce', `must be "pre" or "post", got ${JSON.stringify(p.enforce)}`);
  if (p.needs !== undefined && !(Array.isArray(p.needs) && p.needs.every((n) => typeof n === 'string' && n !== '')))
    bad('needs', 'must be a list of plugin names');
  if (p.errorPrefix !== undefined && !(typeof p.errorPrefix === 'string' && /^[A-Z][A-Z0-9]*$/.test(p.errorPrefix)))
    bad('errorPrefix', `must be upper-case letters and digits (e.g. ACME), got ${JSON.stringify(p.errorPrefix)}`);
  for (const field of ['errorCodes', 'hooks', 'schemas', 'commands', 'jobs', 'durableJobs', 'workflow'] as const)
    if (p[field] !== undefined && !isObject(p[field])) bad(field, 'must be an object');
  for (const [code, entry] of Object.entries((p.errorCodes ?? {}) as Record<string, unknown>)) {
    const e = entry as Record<string, unknown> | undefined;
    if (!/^[A-Z][A-Z0-9_]*$/.test(code)) bad(`errorCodes.${code}`, 'must be an upper-case code');
    if (!isObject(e) || ![0, 1, 2, 3].includes(e.exit as number) || typeof e.title !== 'string' || typeof e.hint !== 'string')
      bad(`errorCodes.${code}`, 'must be { exit: 0-3, title, hint }');
  }
  for (const [schema, decl] of Object.entries((p.schemas ?? {}) as Record<string, unknown>)) {
    const d = decl as Record<string, unknown> | undefined;
    if (!isObject(d) || typeof d.description !== 'string') bad(`schemas.${schema}`, 'must be { description, schema } or { description, load }');
    else if ((d.schema === undefined) === (d.load === undefined)) bad(`schemas.${schema}`, 'must give exactly one of schema and load');
    else if (d.load !== undefined && !isFunction(d.load)) bad(`schemas.${schema}.load`, 'must be a function');
    else if (d.schema !== undefined && !isObject(d.schema)) bad(`schemas.${schema}.schema`, 'must be a valibot schema');
  }
  for (const [command, decl] of Object.entries((p.commands ?? {}) as Record<string, unknown>)) {
    const d = decl as Record<string, unknown> | undefined;
    if (!/^[a-z][a-z0-9-]*( [a-z][a-z0-9-]*)*$/.test(command)) bad(`commands.${command}`, 'must be lower-case words (`status`, `lifecycle start`)');
    if (!isObject(d) || !isFunction(d.load)) bad(`commands.${command}`, 'must be { load: () => import(...) }');
    else if (d.needs !== undefined && !(Array.isArray(d.needs) && d.needs.every((n) => typeof n === 'string' && n !== '')))
      bad(`commands.${command}.needs`, 'must be a list of plugin names');
  }
  for (const field of ['jobs', 'durableJobs'] as const)
    for (const [job, load] of Object.entries((p[field] ?? {}) as Record<string, unknown>)) if (!isFunction(load)) bad(`${field}.${job}`, 'must be a function');
  for (const field of ['gates', 'delegates'] as const) {
    const list = p[field];
    if (list === undefined) continue;
    if (!Array.isArray(list)) bad(field, 'must be a list');
    const key = field === 'gates' ? 'type' : 'name';
    const run = field === 'gates' ? 'check' : 'run';
    (list as unknown[]).forEach((item, i) => {
      const d = item as Record<string, unknown> | undefined;
      if (!isObject(d) || typeof d[key] !== 'string' || !isFunction(d[run])) bad(`${field}[${i}]`, `must be a definition with ${key} and ${run}()`);
    });
  }
  if (p.workflow !== undefined && typeof (p.workflow as Record<string, unknown>).description !== 'string') bad('workflow.description', 'must be a string');
  return p as unknown as PluginDefinition;
}
