import { relative } from 'pathe';
import * as v from 'valibot';
import { escapeControl, loadConfig, SluiceError, type CommandIO } from '../../../core/index.ts';
import type { LifecycleContext } from '../lifecycle-context.ts';
import { runGit } from '../workspace/run-git.ts';
import { grantDoesNotCover, LifecycleConfigSchema, type CommitGrant } from './commit-grant.ts';
import { defaultGrantKeyFile, GRANT_ENV, verifySignedGrant } from './signed-grant.ts';

export interface CommitAuthorization {
  source: 'interactive' | 'config' | 'signed-env' | 'host-api';
  mode: string;
  owner: string;
}

export interface CommitPreview {
  slug: string;
  message: string;
  /** `git status` letters and path of every file the commit will contain. */
  files: { status: string; path: string }[];
}

export interface AuthorizeOptions {
  /** For the interactive preview and the explicit yes. */
  io?: CommandIO;
  /** A grant handed over by code that embeds sluice (the trusted host itself), never by a command line. */
  hostGrant?: CommitGrant;
  /** Where the HMAC key of signed grants lives; defaults to ~/.config/sluice/commit-grant.key. */
  grantKeyFile?: string;
}

/**
 * Who authorizes this local commit, in order: the embedding host, a committed config grant, a signed
 * environment grant, or the person at the terminal after seeing the exact files and message. Anything
 * else (flags, artifacts, unsigned environment variables, a config grant the workspace has modified) is
 * self-declaration and is refused with every reason listed.
 */
export async function authorizeCommit(lc: LifecycleContext, preview: CommitPreview, o: AuthorizeOptions = {}): Promise<CommitAuthorization> {
  const reasons: string[] = [];
  const now = lc.host.now();
  const accept = (grant: CommitGrant, source: CommitAuthorization['source'], from: string): CommitAuthorization | undefined => {
    const why = grantDoesNotCover(grant, preview.slug, now);
    if (why === undefined) return { source, mode: grant.mode, owner: grant.owner };
    reasons.push(`the grant from ${from} does not apply: ${why}`);
    return undefined;
  };

  if (o.hostGrant) {
    const granted = accept(v.parse(LifecycleConfigSchema, { commitAuthorization: o.hostGrant }).commitAuthorization!, 'host-api', 'the host');
    if (granted) return granted;
  }
  const fromConfig = await configGrant(lc, reasons);
  if (fromConfig) {
    const granted = accept(fromConfig.grant, 'config', fromConfig.file);
    if (granted) return granted;
  }
  const signed = lc.host.env(GRANT_ENV);
  if (signed !== undefined && signed !== '') {
    const verified = await verifySignedGrant(signed, o.grantKeyFile ?? defaultGrantKeyFile());
    if ('refused' in verified) reasons.push(verified.refused);
    else {
      const granted = accept(verified.grant, 'signed-env', GRANT_ENV);
      if (granted) return granted;
    }
  }
  if (o.io?.interactive) {
    o.io.warn(formatPreview(preview, o.io));
    if (await o.io.confirm(`Create this commit for ${preview.slug}?`)) return { source: 'interactive', mode: 'interactive', owner: lc.host.env('USER') ?? 'terminal user' };
    reasons.push('the commit was not confirmed at the terminal');
  } else {
    reasons.push('no terminal to confirm on');
  }
  throw new SluiceError('COMMIT_NOT_AUTHORIZED', {
    message: `commit for ${preview.slug} is not authorized: ${reasons.join('; ')}`,
    data: { reasons, preview },
  });
}

const trackedConfig = new WeakSet<LifecycleContext>();

/** `lifecycle.commitAuthorization` from the project's config, only if that file is committed and unmodified. */
async function configGrant(lc: LifecycleContext, reasons: string[]): Promise<{ grant: CommitGrant; file: string } | undefined> {
  const { config, file } = await loadConfig(lc.host, lc.root);
  const section = (config as { lifecycle?: unknown }).lifecycle;
  if (section === undefined || file === undefined) return undefined;
  const parsed = v.safeParse(LifecycleConfigSchema, section);
  const name = relative(lc.root, file);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    throw new SluiceError('CONFIG_INVALID', { file: name, field: `lifecycle.${v.getDotPath(issue) ?? ''}`, message: issue.message });
  }
  const grant = parsed.output.commitAuthorization;
  if (!grant) return undefined;
  // An agent can edit files in the project; a grant it just wrote is not the operator's. (Once the file
  // is known to be tracked that is remembered: untracking it later shows up as a change in the status.)
  const tracked = trackedConfig.has(lc) || (await runGit(lc.host, lc.root, ['ls-files', '--error-unmatch', '--', name])).code === 0;
  if (tracked) trackedConfig.add(lc);
  const changed = (await lc.workspace())?.status.entries.some((e) => e.path === name) ?? true;
  if (!tracked || changed) {
    reasons.push(`the grant in ${name} is ignored because the file is ${!tracked ? 'not committed' : 'modified since the last commit'}`);
    return undefined;
  }
  return { grant, file: name };
}

export function formatPreview(preview: CommitPreview, io: Pick<CommandIO, 'style'>): string {
  const s = io.style;
  const lines = [s.bold(`Commit for ${preview.slug}`), '', ...preview.message.split('\n').map((l) => `    ${l}`), '', `${preview.files.length} file${preview.files.length === 1 ? '' : 's'}:`];
  // A path is one line however it is named: a newline or cursor escape in a folder name must not redraw the list.
  for (const f of preview.files) lines.push(`  ${s.cyan(f.status.padEnd(2))} ${escapeControl(f.path)}`);
  return lines.join('\n');
}
