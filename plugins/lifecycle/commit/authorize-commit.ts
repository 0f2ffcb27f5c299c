import { relative } from 'pathe';
import * as v from 'valibot';
import { escapeControl, loadConfig, SluiceError, type CommandIO } from '../../../core/index.ts';
import type { LifecycleContext } from '../lifecycle-context.ts';
import { repositoryRoot } from '../workspace/repository-root.ts';
import { grantDoesNotCover, LifecycleConfigSchema, type CommitGrant } from './commit-grant.ts';
import { defaultGrantKeyFile, GRANT_ENV, verifySignedGrant } from './signed-grant.ts';
import { defaultUserConfigFile, readUserConfigGrant } from './user-config-grant.ts';

export interface CommitAuthorization {
  source: 'interactive' | 'config' | 'signed-env' | 'host-api';
  mode: string;
  owner: string;
}

export interface CommitPreview {
  slug: string;
  message: string;
  /** `git status` letter, path and lines added/removed (null: binary) of every file the commit will contain. */
  files: { status: string; path: string; added: number | null; removed: number | null }[];
}

export interface AuthorizeOptions {
  /** For the interactive preview and the explicit yes. */
  io?: CommandIO;
  /** A grant handed over by code that embeds sluice (the trusted host itself), never by a command line. */
  hostGrant?: CommitGrant;
  /** Where the HMAC key of signed grants lives; defaults to ~/.config/sluice/commit-grant.key. */
  grantKeyFile?: string;
  /** The user's config holding a grant; defaults to ~/.config/sluice/config.yaml. */
  userConfigFile?: string;
}

/** What is to be authorized: a commit (shown as its preview) or lifting a round-limit block. */
export interface AuthorizationRequest {
  slug: string;
  action: 'commit' | 'unblock';
  /** Shown to the person before the question. */
  preview: string;
  question: string;
}

/**
 * Who authorizes this local commit, in order: the embedding host, the user's own config (outside the
 * repository, owner-only), a signed environment grant bound to this repository and requirement, or the
 * person at the terminal after seeing the exact files and message. Anything else (flags, artifacts,
 * unsigned environment variables, a grant in a file inside the work tree) is self-declaration and is
 * refused with every reason listed.
 */
export async function authorizeCommit(lc: LifecycleContext, preview: CommitPreview, o: AuthorizeOptions = {}): Promise<CommitAuthorization> {
  const request = {
    slug: preview.slug,
    action: 'commit' as const,
    preview: o.io ? formatPreview(preview, o.io) : '',
    question: `Create this commit for ${preview.slug}?`,
  };
  try {
    return await authorize(lc, request, o);
  } catch (error) {
    if (error instanceof SluiceError && error.code === 'COMMIT_NOT_AUTHORIZED')
      throw new SluiceError('COMMIT_NOT_AUTHORIZED', { message: error.detail, data: { ...(error.data as object), preview } });
    throw error;
  }
}

/** The same authority as a commit, for anything else that needs it (lifting a round-limit block). */
export async function authorize(lc: LifecycleContext, r: AuthorizationRequest, o: AuthorizeOptions = {}): Promise<CommitAuthorization> {
  const reasons: string[] = [];
  const now = lc.host.now();
  const accept = (grant: CommitGrant, source: CommitAuthorization['source'], from: string): CommitAuthorization | undefined => {
    const why = grantDoesNotCover(grant, r.slug, now);
    if (why === undefined) return { source, mode: grant.mode, owner: grant.owner };
    reasons.push(`the grant from ${from} does not apply: ${why}`);
    return undefined;
  };
  const workTree = (await repositoryRoot(lc.host, lc.root)).top ?? lc.root;

  if (o.hostGrant) {
    const granted = accept(v.parse(LifecycleConfigSchema, { commitAuthorization: o.hostGrant }).commitAuthorization!, 'host-api', 'the host');
    if (granted) return granted;
  }
  await noteProjectGrant(lc, reasons);
  const userFile = o.userConfigFile ?? defaultUserConfigFile(lc.host);
  const user = await readUserConfigGrant(lc.host, userFile, workTree);
  if (user.refused) reasons.push(`the grant in ${userFile} is ignored: ${user.refused}`);
  if (user.grant) {
    const granted = accept(user.grant, 'config', userFile);
    if (granted) return granted;
  }
  const signed = lc.host.env(GRANT_ENV);
  if (signed !== undefined && signed !== '') {
    const verified = await verifySignedGrant(lc.host, signed, o.grantKeyFile ?? defaultGrantKeyFile(lc.host));
    if ('refused' in verified) reasons.push(verified.refused);
    else if (verified.grant.repository !== workTree) reasons.push(`${GRANT_ENV} is bound to ${verified.grant.repository}, not ${workTree}`);
    else {
      const granted = accept(verified.grant, 'signed-env', GRANT_ENV);
      if (granted) return granted;
    }
  }
  if (o.io?.interactive) {
    if (r.preview) o.io.warn(r.preview);
    if (await o.io.confirm(r.question)) return { source: 'interactive', mode: 'interactive', owner: lc.host.env('USER') ?? 'terminal user' };
    // A person said no (PrizmKit v4's COMMIT_DECLINED): nothing is mutated, the stage stays pending.
    if (r.action === 'commit') {
      throw new SluiceError('COMMIT_DECLINED', {
        message: `the commit of ${r.slug} was declined at the terminal: nothing was committed and the commit stage stays pending`,
        hint: `resume with \`sluice lifecycle record ${r.slug} commit\` when the change should be committed`,
        data: { result: 'COMMIT_DECLINED' },
      });
    }
    reasons.push(`the ${r.action} was not confirmed at the terminal`);
  } else {
    reasons.push('no terminal to confirm on');
  }
  throw new SluiceError('COMMIT_NOT_AUTHORIZED', {
    message: `${r.action === 'commit' ? 'commit' : 'unblock'} for ${r.slug} is not authorized: ${reasons.join('; ')}`,
    data: { reasons },
  });
}

/** A grant in the project's config is never honoured (the agent can write it); say so, so nobody wonders. */
async function noteProjectGrant(lc: LifecycleContext, reasons: string[]): Promise<void> {
  const { config, file } = await loadConfig(lc.host, lc.root);
  const section = (config as { lifecycle?: { commitAuthorization?: unknown } }).lifecycle;
  if (file === undefined || section?.commitAuthorization === undefined) return;
  reasons.push(
    `the grant in ${relative(lc.root, file)} is ignored: a grant never comes from a file inside the work tree (put it in ~/.config/sluice/config.yaml, mode 600)`,
  );
}

const ACTIONS: Record<string, string> = { A: 'add', M: 'modify', D: 'delete', T: 'modify', R: 'rename', C: 'copy', U: 'conflict' };

/** The exact message and, per file, add/modify/delete with its diff stat, then the totals. */
export function formatPreview(preview: CommitPreview, io: Pick<CommandIO, 'style'>): string {
  const s = io.style;
  const lines = [
    s.bold(`Commit for ${preview.slug}`),
    '',
    ...preview.message.split('\n').map((l) => `    ${l}`),
    '',
    `${preview.files.length} file${preview.files.length === 1 ? '' : 's'}:`,
  ];
  const width = Math.max(0, ...preview.files.map((f) => f.path.length));
  let added = 0;
  let removed = 0;
  for (const f of preview.files) {
    added += f.added ?? 0;
    removed += f.removed ?? 0;
    const stat = f.added === null ? 'binary' : `${s.green(`+${f.added}`)} ${s.red(`-${f.removed ?? 0}`)}`;
    // A path is one line however it is named: a newline or cursor escape in a folder name must not redraw the list.
    lines.push(`  ${s.cyan((ACTIONS[f.status] ?? f.status).padEnd(7))} ${escapeControl(f.path).padEnd(width)}  ${stat}`);
  }
  lines.push(`  ${preview.files.length} file(s) changed, ${added} insertion(s)(+), ${removed} deletion(s)(-)`);
  return lines.join('\n');
}
