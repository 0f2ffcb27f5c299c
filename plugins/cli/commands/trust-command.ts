import { defineCommand, SluiceError, TRUSTED_HASH_ENV, type CommandContext, type TrustReview } from '../../../core/index.ts';
import { TrustOutput } from './cli-outputs.ts';

const MARK = { added: '+', changed: '~', removed: '-' } as const;

/** The list a person reviews: every subject, marked new (+), changed (~) or unchanged, and what was removed (-). */
function renderReview(r: TrustReview, ctx: CommandContext): string[] {
  const s = ctx.io.style;
  const changed = new Map(r.changes.map((c) => [`${c.subject.file}\u0000${c.subject.what}`, c.kind]));
  const lines = [`In ${ctx.cwd} sluice would run:`];
  for (const subject of r.manifest.subjects) {
    const kind = changed.get(`${subject.file}\u0000${subject.what}`);
    const mark = kind ? MARK[kind] : ' ';
    const line = `  ${mark} ${subject.file} ${subject.what}: ${subject.shows}`;
    lines.push(kind === 'added' ? s.yellow(line) : kind === 'changed' ? s.red(line) : line);
  }
  for (const c of r.changes.filter((x) => x.kind === 'removed')) lines.push(s.dim(`  - ${c.subject.file} ${c.subject.what}: ${c.subject.shows} (removed)`));
  lines.push(s.dim(`content hash: ${r.manifest.hash}`));
  return lines;
}

const reviewData = (r: TrustReview) => ({
  hash: r.manifest.hash,
  via: r.via,
  trusted: r.trusted,
  subjects: r.manifest.subjects,
  changes: r.changes.map((c) => ({ kind: c.kind, file: c.subject.file, what: c.subject.what })),
});

/**
 * `sluice trust`: shows what in this project would make sluice run code (config plugins, delegate
 * commands, command gates) and, when a person confirms on a terminal, records its hash in the
 * user's trust store. Without a terminal it grants nothing: an agent's shell must not trust
 * its own files. CI hosts pass the expected hash in SLUICE_TRUSTED_HASH instead.
 */
export const trustCommand = defineCommand({
  name: 'trust',
  summary: 'review and trust what this project makes sluice run (plugins, delegate commands, command gates)',
  options: [
    { flags: '--show', description: 'only show what would run and its hash; trust nothing' },
    { flags: '--revoke', description: 'forget the trust given to this project' },
  ],
  examples: ['sluice trust', 'sluice trust --show', 'sluice trust --revoke'],
  output: TrustOutput,
  async run({ options }, ctx) {
    const { trust } = ctx.kernel;
    if (options.revoke) {
      const removed = (await trust.revoke?.()) ?? false;
      return { exitCode: 0, data: { revoked: removed }, human: removed ? `trust revoked for ${ctx.cwd}` : `${ctx.cwd} was not trusted` };
    }
    const r = await trust.review();
    if (r.manifest.subjects.length === 0) {
      return { exitCode: 0, data: reviewData(r), human: 'nothing in this project makes sluice run code: there is nothing to trust' };
    }
    const lines = renderReview(r, ctx);
    if (options.show || (r.trusted && r.via === 'store')) {
      const state = r.trusted ? `trusted (${r.via === 'env' ? TRUSTED_HASH_ENV : 'sluice trust'})` : 'not trusted';
      return { exitCode: 0, data: reviewData(r), human: [...lines, state].join('\n') };
    }
    for (const line of lines) ctx.io.print(line);
    if (!ctx.io.interactive) {
      throw new SluiceError('WORKSPACE_UNTRUSTED', {
        message: 'sluice trust asks a person on a terminal, and this is not one: nothing was trusted',
        hint: `run it yourself in a terminal; a CI host that reviewed this content sets ${TRUSTED_HASH_ENV} (see sluice trust --show)`,
        data: reviewData(r),
      });
    }
    if (!(await ctx.io.confirm('Trust exactly this content and let sluice run it?'))) {
      return { exitCode: 1, data: { ...reviewData(r), trusted: false }, human: 'nothing was trusted' };
    }
    await trust.grant!(r.manifest);
    return { exitCode: 0, data: { ...reviewData(r), trusted: true }, human: `trusted; recorded in ${trust.storePath}` };
  },
});
