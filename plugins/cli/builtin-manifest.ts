import { defineErrorCodes, needsClosure, type PluginDefinition } from '../../core/index.ts';
import { delegatePlugins } from '../../delegates/index.ts';
import { gatePlugins } from '../../gates/index.ts';
import { guardPlugin } from '../guard/guard-plugin.ts';
import { lifecyclePlugin } from '../lifecycle/lifecycle-plugin.ts';
import { mcpPlugin } from '../mcp/mcp-plugin.ts';
import { queueRedisPlugin } from '../queue-redis/queue-redis-plugin.ts';
import { sdlcPlugin } from '../sdlc/sdlc-plugin.ts';
import { sdlcViewsPlugin } from '../sdlc-views/views-plugin.ts';
import { skillTunePlugin } from '../skill-tune/skill-tune-plugin.ts';
import { cliPlugin } from './cli-plugin.ts';

/**
 * Every plugin that ships with sluice, in load order: their faces, the descriptions that say what each
 * provides and needs. A face imports only its error codes, hook declarations and small definitions, so
 * the CLI reads them all and then sets up only the plugins the command it runs needs.
 */
export const builtinFaces: readonly PluginDefinition[] = [
  cliPlugin,
  ...delegatePlugins,
  ...gatePlugins,
  sdlcPlugin,
  sdlcViewsPlugin,
  lifecyclePlugin,
  guardPlugin,
  skillTunePlugin,
  mcpPlugin,
  queueRedisPlugin,
];

/** What one command line sets up: the plugins, and the declared commands whose modules it imports. */
export interface CommandPlan {
  plugins: PluginDefinition[];
  commands: 'all' | string[];
}

/**
 * The declared commands a command line names: `lifecycle record` alone, or a whole group (`tune`
 * with `tune status`) when the second word is not a subcommand. Undefined when no declared command matches.
 */
export function commandsNamed(words: readonly string[], declared: readonly string[]): string[] | undefined {
  const [first, second] = words;
  if (first === undefined) return undefined;
  if (second !== undefined && declared.includes(`${first} ${second}`)) return [`${first} ${second}`];
  const group = declared.filter((c) => c === first || c.startsWith(`${first} `));
  return group.length > 0 ? group : undefined;
}

/**
 * The plugins a command line needs, from the declarations alone: the plugins that own its commands,
 * the plugins those commands name in `needs`, and everything they need in turn. Without a known
 * command (help, an unknown word, a command of a config plugin), or for a command that needs `*`,
 * every plugin and every command.
 */
export function planCommand(words: readonly string[], faces: readonly PluginDefinition[] = builtinFaces): CommandPlan {
  const declared = faces.flatMap((p) => Object.keys(p.commands ?? {}));
  const commands = commandsNamed(words, declared);
  if (commands === undefined) return { plugins: [...faces], commands: 'all' };
  const roots = new Set<string>();
  for (const p of faces)
    for (const [name, d] of Object.entries(p.commands ?? {})) if (commands.includes(name)) for (const need of [p.name, ...(d.needs ?? [])]) roots.add(need);
  if (roots.has('*')) return { plugins: [...faces], commands: 'all' };
  const wanted = needsClosure(faces, roots);
  return { plugins: faces.filter((p) => wanted.has(p.name)), commands };
}

/**
 * Every built-in plugin's error codes in the catalog, read from the faces' `errorCodes` (for `sluice
 * errors`, and for a code raised before its plugin was set up, or by a module of another plugin).
 */
export async function loadBuiltinErrorCodes(): Promise<void> {
  for (const p of builtinFaces) if (p.errorCodes) defineErrorCodes(p.name, p.errorCodes);
}
