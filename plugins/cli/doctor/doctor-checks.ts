import { join } from 'node:path';
import { checkPrivateFile, isSluiceError, parseDataText, readDataText, userFolders, yamlCodec, type CommandContext } from '../../../core/index.ts';
import { missingSandbox } from '../../guard/claude-sandbox-settings.ts';
import { hasSluiceHooks, sluiceHooksCurrent } from '../../guard/claude-settings.ts';
import { readClaudeSettings, SETTINGS, wantedClaudeSettings } from '../../guard/hooks-command.ts';
import { defaultGrantKeyFile } from '../../lifecycle/commit/signed-grant.ts';
import { defaultUserConfigFile } from '../../lifecycle/commit/user-config-grant.ts';
import { parseAllowedSigners } from '../../sdlc/signing/allowed-signers.ts';
import { allowedSignersPath } from '../../sdlc/signing/allowed-signers-file.ts';
import { defaultSigningKey } from '../../sdlc/signing/sign-transition.ts';
import { trustStorePath } from '../trust/trust-store.ts';

/**
 * One protection as `sluice doctor` sees it. `required`: the project's config or profile demands
 * it (or sluice refuses the file anyway), so a `status` other than ok makes doctor exit 1.
 */
export interface DoctorCheck {
  id: string;
  what: string;
  status: 'ok' | 'missing' | 'stale' | 'unsafe' | 'off' | 'absent' | 'person';
  required: boolean;
  detail: string;
  /** The command that fixes it (for a person, where only a person can). */
  fix?: string;
  file?: string;
}

const INSTALL = 'sluice hooks install claude';

async function osSandbox(ctx: CommandContext): Promise<DoctorCheck> {
  const mode = ctx.kernel.config.sandbox ?? 'auto';
  // The host's own answer, as the runs get it (bubblewrap: a bwrap on PATH that can start here).
  const kind = (await ctx.host.sandboxKind?.()) ?? null;
  const detail = kind ? `${kind} (as sluice runs AI CLIs in it)` : 'no OS sandbox on this machine (no bwrap on PATH that can start here, no sandbox-exec)';
  const base = { id: 'os-sandbox', what: 'OS sandbox for AI CLI runs' };
  if (kind && mode === 'off')
    return {
      ...base,
      status: 'off',
      required: false,
      detail: `${detail} is here, but sluice.config sets sandbox: off`,
      fix: 'set sandbox: auto in sluice.config.yaml',
    };
  if (kind) return { ...base, status: 'ok', required: mode === 'required', detail: `${detail}; sandbox: ${mode}` };
  return {
    ...base,
    status: 'missing',
    required: mode === 'required',
    detail: `${detail}; sandbox: ${mode}${mode === 'required' ? ' (runs are refused)' : ' (runs go unsandboxed)'}`,
    fix: 'a person installs it: sudo apt-get install bubblewrap (Linux; macOS has sandbox-exec)',
  };
}

async function claudeSettings(ctx: CommandContext): Promise<DoctorCheck[]> {
  const hooks = { id: 'claude-hooks', what: 'Claude Code guard and handoff hooks', file: SETTINGS };
  const sandbox = { id: 'claude-sandbox', what: "Claude Code's sandbox and permission rules", file: SETTINGS };
  let settings: Awaited<ReturnType<typeof readClaudeSettings>>;
  try {
    settings = await readClaudeSettings(ctx.host, ctx.cwd);
  } catch (error) {
    const detail = isSluiceError(error) ? error.detail : String(error);
    return [{ ...hooks, status: 'unsafe', required: false, detail, fix: `fix ${SETTINGS}, then ${INSTALL}` }];
  }
  const wanted = await wantedClaudeSettings(ctx.host, ctx.cwd);
  const out: DoctorCheck[] = [];
  if (sluiceHooksCurrent(settings, wanted.command)) out.push({ ...hooks, status: 'ok', required: false, detail: `run ${wanted.command}` });
  else if (hasSluiceHooks(settings))
    out.push({ ...hooks, status: 'stale', required: false, detail: `installed, but not as install would write them now (${wanted.command})`, fix: INSTALL });
  else out.push({ ...hooks, status: 'missing', required: false, detail: 'not installed', fix: INSTALL });
  const missing = missingSandbox(settings, wanted.entries, SETTINGS);
  const total = Object.values(wanted.entries.arrays).reduce((n, a) => n + a.length, 0) + Object.keys(wanted.entries.scalars).length;
  if (missing.length === 0) out.push({ ...sandbox, status: 'ok', required: false, detail: `${total} entries, current` });
  else if (missing.length === total) out.push({ ...sandbox, status: 'missing', required: false, detail: 'not installed', fix: INSTALL });
  else out.push({ ...sandbox, status: 'stale', required: false, detail: `${missing.length} of ${total} entries missing (first: ${missing[0]})`, fix: INSTALL });
  // The local file wins over the project's: turning the sandbox off there undoes all of it.
  const local = await readClaudeSettings(ctx.host, ctx.cwd, '.claude/settings.local.json').catch(() => ({}) as Record<string, unknown>);
  const box = (local as { sandbox?: { enabled?: unknown; allowUnsandboxedCommands?: unknown } }).sandbox;
  if (box?.enabled === false || box?.allowUnsandboxedCommands === true)
    out.push({
      id: 'claude-local-override',
      what: 'Claude Code local settings',
      file: '.claude/settings.local.json',
      status: 'off',
      required: false,
      detail: `.claude/settings.local.json sets ${box.enabled === false ? 'sandbox.enabled: false' : 'sandbox.allowUnsandboxedCommands: true'}, which wins over ${SETTINGS}`,
      fix: 'a person removes it from .claude/settings.local.json',
    });
  return out;
}

/** The fix checkPrivateFile's message points at: chmod the file or its folder, or chown it. */
function fixFor(message: string, file: string): string {
  const folder = /chmod 700 (\S+)/.exec(message);
  if (folder) return `chmod 700 ${folder[1]}`;
  if (/belongs to uid/.test(message)) return `chown "$(id -un)" ${file} (or replace it with your own)`;
  if (/folder owned by uid/.test(message)) return `chown "$(id -un)" ${file.slice(0, file.lastIndexOf('/'))}`;
  return `chmod 600 ${file}`;
}

async function keyFiles(ctx: CommandContext): Promise<DoctorCheck[]> {
  const { host } = ctx;
  const folders = userFolders(host.env, host.accountHome);
  const signing = await defaultSigningKey(ctx.kernel);
  const files = [
    { id: 'key-commit-grant', what: 'commit-grant key', path: defaultGrantKeyFile(host), secret: true },
    { id: 'user-config', what: 'user config (commit grants)', path: defaultUserConfigFile(host), secret: true },
    { id: 'trust-store', what: 'trust store', path: trustStorePath(host), secret: true },
    { id: 'key-queue', what: 'queue key', path: join(folders.config, 'queue.key'), secret: true },
    ...(signing ? [{ id: 'key-signing', what: 'SSH signing key', path: signing, secret: !signing.endsWith('.pub') }] : []),
  ];
  const out: DoctorCheck[] = [];
  for (const f of files) {
    const base = { id: f.id, what: f.what, file: f.path };
    try {
      const info = await checkPrivateFile(host, f.path, { what: `the ${f.what}`, secret: f.secret });
      out.push(info ? { ...base, status: 'ok', required: false, detail: 'yours, owner-only' } : { ...base, status: 'absent', required: false, detail: 'none' });
    } catch (error) {
      if (!isSluiceError(error, 'PRIVATE_FILE_UNSAFE')) throw error;
      // sluice refuses such a file when it reads it: the protection it stands for is missing.
      out.push({ ...base, status: 'unsafe', required: true, detail: error.detail, fix: fixFor(error.detail, f.path) });
    }
  }
  return out;
}

async function workspaceTrust(ctx: CommandContext): Promise<DoctorCheck> {
  const base = { id: 'workspace-trust', what: 'workspace trust', required: false };
  let r: Awaited<ReturnType<CommandContext['kernel']['trust']['review']>>;
  try {
    r = await ctx.kernel.trust.review();
  } catch (error) {
    // The store is refused (its own row says why): nothing of the project's runs meanwhile.
    if (!isSluiceError(error)) throw error;
    return { ...base, status: 'unsafe', detail: `cannot be read: ${error.detail}`, fix: error.hint };
  }
  if (r.manifest.subjects.length === 0) return { ...base, status: 'ok', detail: 'nothing in this project makes sluice run code' };
  if (r.trusted)
    return { ...base, status: 'ok', detail: `${r.manifest.subjects.length} subjects trusted (${r.via === 'env' ? 'SLUICE_TRUSTED_HASH' : 'sluice trust'})` };
  return {
    ...base,
    status: 'person',
    detail: `${r.changes.length} of ${r.manifest.subjects.length} subjects not trusted: project code does not run`,
    fix: 'a person runs sluice trust on a terminal',
  };
}

async function signatures(ctx: CommandContext): Promise<DoctorCheck[]> {
  const sdlc = join(ctx.cwd, '.sdlc');
  let profile: unknown;
  try {
    profile = parseDataText(await readDataText(ctx.host, join(sdlc, 'profile.yaml'), { display: '.sdlc/profile.yaml' }), yamlCodec, '.sdlc/profile.yaml');
  } catch {
    return [];
  }
  const required = (profile as { sluice?: { require_signed_approvals?: unknown } } | null)?.sluice?.require_signed_approvals === true;
  const base = { id: 'signed-approvals', what: 'signed approvals', file: '.sdlc/allowed_signers', required };
  if (!required) return [{ ...base, status: 'off', detail: 'the profile does not require signed approvals; names are shown as unverified' }];
  const signers = allowedSignersPath(sdlc);
  let count = 0;
  try {
    count = parseAllowedSigners(await ctx.host.readText(signers, { maxBytes: 256 * 1024 }), '.sdlc/allowed_signers').length;
  } catch {
    count = 0;
  }
  return count > 0
    ? [{ ...base, status: 'ok', detail: `required; ${count} key${count === 1 ? '' : 's'} in .sdlc/allowed_signers` }]
    : [
        {
          ...base,
          status: 'missing',
          detail: 'the profile requires signed approvals but .sdlc/allowed_signers lists no key',
          fix: 'sluice init --force --allowed-signers FILE',
        },
      ];
}

/** What no setting here can hold: Claude Code's settings outside the project can loosen the project's. */
const outsideSettings = (): DoctorCheck => ({
  id: 'outside-settings',
  what: 'Claude Code settings outside the project',
  status: 'person',
  required: false,
  detail: '~/.claude/settings.json, managed settings and --settings can widen what .claude/settings.json denies',
  fix: 'a person reviews them: claude doctor, and /sandbox in a session',
});

export async function doctorChecks(ctx: CommandContext): Promise<DoctorCheck[]> {
  return [
    await osSandbox(ctx),
    ...(await claudeSettings(ctx)),
    ...(await keyFiles(ctx)),
    await workspaceTrust(ctx),
    ...(await signatures(ctx)),
    outsideSettings(),
  ];
}
