import { isAbsolute, join } from 'pathe';
import type { SluiceConfig } from '../config/config-schema.ts';
import type { DelegateSettings } from '../delegate/contract.ts';
import type { Host } from '../host/host.ts';
import { isSecretName } from '../secrets/redact-secrets.ts';
import { scriptSubjects, type ScriptContext } from './script-subjects.ts';
import { canonicalJson, sha256, type TrustSubject } from './trust-subject.ts';

/**
 * Delegate settings that only tune a run (model, limits, output format). Every other key — the
 * command, its arguments, its environment, and keys sluice does not know — can change what runs,
 * so a delegate that sets one needs the workspace's trust. Unknown keys fail closed on purpose.
 */
export const DATA_ONLY_DELEGATE_KEYS: ReadonlySet<string> = new Set([
  'model',
  'timeout',
  'retries',
  'killGrace',
  'outputFormat',
  'promptVia',
  'output',
  'file',
]);

/** The settings of a delegate that decide what runs, or undefined when it runs only what the user installed. */
export function delegateCodeSettings(settings: DelegateSettings | undefined): Record<string, unknown> | undefined {
  const code = Object.entries(settings ?? {}).filter(([key, value]) => value !== undefined && !DATA_ONLY_DELEGATE_KEYS.has(key));
  return code.length === 0 ? undefined : Object.fromEntries(code);
}

export async function delegateSubject(file: string, backend: string, settings: DelegateSettings | undefined): Promise<TrustSubject | undefined> {
  const code = delegateCodeSettings(settings);
  if (!code) return undefined;
  const line = [code.command, ...((code.args as string[] | undefined) ?? [])].filter((x) => typeof x === 'string').join(' ');
  // Everything else that changes the run is shown in full (env can name a PATH or NODE_OPTIONS): a person reviews it all.
  const extra = Object.entries(code).filter(([k]) => k !== 'command' && k !== 'args');
  // Secret-named env values are hashed but never shown or stored in the trust record.
  const masked = (k: string, v: unknown) =>
    k === 'env' && v && typeof v === 'object'
      ? Object.fromEntries(Object.entries(v).map(([name, value]) => [name, isSecretName(name) ? '[REDACTED]' : value]))
      : v;
  const rest = extra.map(([k, v]) => `${k}: ${canonicalJson(masked(k, v))}`).join(', ');
  return {
    file,
    what: `delegates.${backend}`,
    shows: `${line || `${backend} (installed)`}${rest ? ` (${rest})` : ''}`,
    hash: await sha256(canonicalJson(code)),
  };
}

/** The argv lists a delegate may run: `command` with `args`, plus the extra arguments of each mode. */
function delegateArgvs(code: Record<string, unknown>): string[][] {
  if (typeof code.command !== 'string') return [];
  const list = (key: string) => (Array.isArray(code[key]) ? (code[key] as unknown[]).filter((x): x is string => typeof x === 'string') : []);
  const base = [code.command, ...list('args')];
  return [base, [...base, ...list('writeArgs')], [...base, ...list('analysisArgs')]];
}

/**
 * A delegate's settings and the project files its command runs (`./ai.sh`, `node tools/agent.mjs`),
 * or nothing when it runs only what the user installed.
 */
export async function delegateSubjects(c: ScriptContext, file: string, backend: string, settings: DelegateSettings | undefined): Promise<TrustSubject[]> {
  const subject = await delegateSubject(file, backend, settings);
  if (!subject) return [];
  const code = delegateCodeSettings(settings)!;
  const env = code.env as Record<string, string> | undefined;
  return [subject, ...(await scriptSubjects({ ...c, pathEnv: env?.PATH ?? c.pathEnv }, `delegates.${backend}`, delegateArgvs(code)))];
}

/**
 * `sandbox: off` in a project's config: the AI CLIs would run outside the OS sandbox, so a person
 * trusts it like a command (an agent could write a config where none was). `--sandbox off` needs none.
 */
export async function sandboxOffSubject(file: string): Promise<TrustSubject> {
  return { file, what: 'sandbox', shows: 'sandbox: off (AI CLIs run without the OS sandbox)', hash: await sha256('sandbox: off') };
}

/** A command a gate would run (argv, no shell), fingerprinted by its argv alone. */
export async function commandSubject(file: string, what: string, argv: readonly string[]): Promise<TrustSubject> {
  return { file, what, shows: argv.join(' '), hash: await sha256(canonicalJson(argv)) };
}

/** A gate's command and the files it runs (`scripts/lint.sh`, `python3 tools/check.py`). */
export async function commandSubjects(c: ScriptContext, file: string, what: string, argv: readonly string[]): Promise<TrustSubject[]> {
  return [await commandSubject(file, what, argv), ...(await scriptSubjects(c, what, [argv]))];
}

const isPathSpecifier = (spec: string) => spec.startsWith('.') || isAbsolute(spec);

/** A config plugin, fingerprinted by its specifier and the bytes of the module file it resolves to. */
export async function pluginSubject(host: Host, projectRoot: string, file: string, index: number, spec: string): Promise<TrustSubject> {
  let path: string | undefined;
  try {
    path = isPathSpecifier(spec) ? join(projectRoot, spec) : await host.resolveModule?.(spec, projectRoot);
  } catch {
    path = undefined;
  }
  let content = 'unresolved';
  if (path !== undefined) {
    try {
      content = await sha256(await host.readBytes(path, { maxBytes: 16 * 1024 * 1024 }));
    } catch {
      content = 'unreadable';
    }
  }
  return {
    file,
    what: `plugins[${index}]`,
    shows: path !== undefined && !isPathSpecifier(spec) ? `${spec} (${path})` : spec,
    hash: await sha256(`${spec}\u0000${content}`),
  };
}

export async function pluginSubjects(host: Host, projectRoot: string, file: string, specs: readonly string[]): Promise<TrustSubject[]> {
  return Promise.all(specs.map((spec, i) => pluginSubject(host, projectRoot, file, i, spec)));
}

/**
 * Everything in the config that runs code: its plugins and delegates with a configured command,
 * plus the config file as a whole whenever there is any (a plugin reads the rest of it).
 */
export async function configSubjects(
  host: Host,
  projectRoot: string,
  config: SluiceConfig,
  configPath: string | undefined,
  display: string,
): Promise<TrustSubject[]> {
  if (configPath === undefined) return [];
  const out = await pluginSubjects(host, projectRoot, display, config.plugins);
  const scripts = { host, projectRoot, pathEnv: host.env('PATH') };
  for (const [backend, settings] of Object.entries(config.delegates ?? {})) out.push(...(await delegateSubjects(scripts, display, backend, settings)));
  if (config.sandbox === 'off') out.push(await sandboxOffSubject(display));
  if (out.length > 0) out.push({ file: display, what: '(whole file)', shows: 'its other settings', hash: await sha256(await host.readBytes(configPath)) });
  return out;
}
