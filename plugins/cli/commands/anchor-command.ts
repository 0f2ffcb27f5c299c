import { defineCommand, SluiceError, userFolders, type JournalSpec, type Kernel } from '../../../core/index.ts';
import { sshVerify } from '../../sdlc/signing/ssh-signature.ts';
import { ANCHOR_NAMESPACE, anchorStatement, type StatedJournal } from './anchor-statement.ts';
import { AnchorOutput } from './cli-outputs.ts';

type Listed = JournalSpec & { label: string };

/**
 * `sluice anchor`: a person accepts the project's journals of records on this machine (a fresh clone,
 * another machine, a project that moved), so they read as verified instead of "unanchored here". Each
 * journal is read and checked as every command reads it, so one that contradicts an anchor this machine
 * has (cut short, rewritten, deleted) is refused here too: anchoring never accepts a rollback. It asks on
 * a terminal, or takes a person's SSH signature over the anchor statement (`--statement` prints it;
 * `--signature FILE` checks it against the allowed_signers in the person's config folder, outside the
 * work tree): an agent's shell must not anchor the records it writes (the guard asks a person too).
 */
export const anchorCommand = defineCommand({
  name: 'anchor',
  summary: "accept this project's journals of records on this machine (after a clone or a move), so they read as verified",
  options: [
    { flags: '--show', description: 'only list the journals and what they are here; anchor nothing' },
    { flags: '--statement', description: 'print the statement a person signs for --signature (the journals to anchor and their heads); anchor nothing' },
    {
      flags: '--signature <file>',
      description: `anchor without a terminal: FILE is \`sluice anchor --statement | ssh-keygen -Y sign -f KEY -n ${ANCHOR_NAMESPACE}\`, by a key in your config folder's allowed_signers`,
    },
  ],
  // The signature route needs a person's key: README shows it whole (`--statement | ssh-keygen -Y sign ... && --signature`).
  examples: ['sluice anchor --show', 'sluice anchor'],
  output: AnchorOutput,
  async run({ options }, ctx) {
    const { kernel } = ctx;
    const journals: Listed[] = [];
    if (kernel.hooks.isDeclared('records:journals')) await kernel.hooks.call('records:journals', { root: ctx.cwd, add: (j) => journals.push(j) });
    const rows: {
      spec: Listed;
      label: string;
      file: string;
      entries: number;
      head: StatedJournal;
      before: 'verified' | 'unanchored' | 'partly';
      anchored: boolean;
    }[] = [];
    for (const j of journals) {
      // Throws STATE_TAMPERED / JOURNAL_ROLLED_BACK as every command does: nothing is anchored then.
      // Entries another machine keyed after this one's anchor (a teammate's, pulled) are listed as unanchored, for the person to accept.
      const loaded = await kernel.store.loadJournal(j, { acceptUnkeyedTail: true });
      if (!loaded) continue;
      const a = loaded.anchoring;
      const before = a.state === 'unanchored' ? ('unanchored' as const) : a.from > 0 ? ('partly' as const) : ('verified' as const);
      const file = kernel.display(j.path);
      const head = { file, seq: loaded.last?.seq ?? 0, hash: loaded.last?.hash ?? '' };
      rows.push({ spec: j, label: j.label, file, entries: loaded.count, head, before, anchored: false });
    }
    const s = ctx.io.style;
    const folder = kernel.store.records.folder;
    const data = () => ({ journals: rows.map(({ spec: _s, head: _h, ...r }) => r), anchored: rows.filter((r) => r.anchored).length, folder });
    const lines = rows.map(
      (r) =>
        `  ${r.before === 'verified' ? ' ' : '+'} ${r.label} (${r.file}): ${r.entries} entries, ${r.before === 'partly' ? 'partly anchored' : r.before} here`,
    );
    const todo = rows.filter((r) => r.before !== 'verified');
    const statement = anchorStatement(
      kernel.projectRoot,
      todo.map((r) => r.head),
    );
    if (options.statement) return { exitCode: 0, data: data(), human: statement.trimEnd() };
    if (todo.length === 0 || options.show) {
      const state =
        rows.length === 0
          ? 'this project has no journals of records yet'
          : todo.length === 0
            ? 'every journal is verified here'
            : `${todo.length} journal(s) would be anchored`;
      return { exitCode: 0, data: data(), human: [...lines, s.dim(state)].join('\n') };
    }
    for (const line of lines) ctx.io.print(line);
    if (typeof options.signature === 'string') {
      const signer = await signedBy(kernel, options.signature, statement);
      for (const r of todo) {
        await kernel.store.anchorJournal(r.spec, { seq: r.head.seq, hash: r.head.hash });
        r.anchored = true;
      }
      return { exitCode: 0, data: data(), human: `anchored ${todo.length} journal(s), signed by ${signer}; anchors are in ${folder}` };
    }
    if (!ctx.io.interactive) {
      throw new SluiceError('ANCHOR_NEEDS_PERSON', {
        message: `sluice anchor asks a person on a terminal, and this is not one: ${todo.length} journal(s) stay unanchored here`,
        data: data(),
      });
    }
    const ok = await ctx.io.confirm(
      `Anchor these ${todo.length} journal(s) as they are now? Check them first (git log -p -- the journals): anchoring accepts their whole history on this machine`,
    );
    if (!ok) return { exitCode: 1, data: data(), human: 'nothing was anchored' };
    for (const r of todo) {
      await kernel.store.anchorJournal(r.spec);
      r.anchored = true;
    }
    return { exitCode: 0, data: data(), human: `anchored ${todo.length} journal(s); anchors are in ${folder}` };
  },
});

/**
 * The principal whose signature over `statement` is in `file`, by the person's own allowed_signers
 * (their config folder, which the sandbox keeps from the agent); ANCHOR_NEEDS_PERSON for any other.
 */
async function signedBy(kernel: Kernel, file: string, statement: string): Promise<string> {
  const { host } = kernel;
  const refuse = (message: string) =>
    new SluiceError('ANCHOR_NEEDS_PERSON', {
      file,
      message,
      hint: `sign the statement this prints now: \`sluice anchor --statement | ssh-keygen -Y sign -f KEY -n ${ANCHOR_NAMESPACE}\`, with a key listed in your own allowed_signers; or run \`sluice anchor\` in a terminal`,
    });
  const allowedSigners = `${userFolders(host.env, host.accountHome).config}/allowed_signers`;
  const root = kernel.projectRoot.replace(/\/+$/, '');
  if (allowedSigners.startsWith(`${root}/`)) throw refuse(`the allowed_signers file ${allowedSigners} is inside the project, where an agent can write it`);
  if ((await host.stat(allowedSigners)) === null)
    throw refuse(`no allowed_signers in your config folder (${allowedSigners}): list your SSH key there to anchor by signature`);
  const path = file.startsWith('/') ? file : `${kernel.projectRoot}/${file}`;
  const signature = await host.readText(path, { maxBytes: 64 * 1024 }).catch(() => {
    throw refuse(`cannot read the signature file ${file}`);
  });
  const outcome = await sshVerify(host, { allowedSigners, text: statement, signature, namespace: ANCHOR_NAMESPACE });
  if (outcome.status === 'valid') return outcome.principal;
  throw refuse(
    outcome.status === 'unknown-signer'
      ? `the signature is by a key your allowed_signers (${allowedSigners}) does not list`
      : `the signature is not over the anchor statement of these journals as they are now (another head, another project, or not a signature): ${outcome.detail}`,
  );
}
