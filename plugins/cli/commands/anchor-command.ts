import { defineCommand, SluiceError, type JournalSpec } from '../../../core/index.ts';
import { AnchorOutput } from './cli-outputs.ts';

type Listed = JournalSpec & { label: string };

/**
 * `sluice anchor`: a person accepts the project's journals of records on this machine (a fresh clone,
 * another machine, a project that moved), so they read as verified instead of "unanchored here". Each
 * journal is read and checked as every command reads it, so one that contradicts an anchor this machine
 * has (cut short, rewritten, deleted) is refused here too: anchoring never accepts a rollback. It asks on
 * a terminal only: an agent's shell must not anchor the records it writes (the guard asks a person too).
 */
export const anchorCommand = defineCommand({
  name: 'anchor',
  summary: "accept this project's journals of records on this machine (after a clone or a move), so they read as verified",
  options: [{ flags: '--show', description: 'only list the journals and what they are here; anchor nothing' }],
  examples: ['sluice anchor --show', 'sluice anchor'],
  output: AnchorOutput,
  async run({ options }, ctx) {
    const { kernel } = ctx;
    const journals: Listed[] = [];
    if (kernel.hooks.isDeclared('records:journals')) await kernel.hooks.call('records:journals', { root: ctx.cwd, add: (j) => journals.push(j) });
    const rows: { spec: Listed; label: string; file: string; entries: number; before: 'verified' | 'unanchored' | 'partly'; anchored: boolean }[] = [];
    for (const j of journals) {
      // Throws STATE_TAMPERED / JOURNAL_ROLLED_BACK as every command does: nothing is anchored then.
      // Entries another machine keyed after this one's anchor (a teammate's, pulled) are listed as unanchored, for the person to accept.
      const loaded = await kernel.store.loadJournal(j, { acceptUnkeyedTail: true });
      if (!loaded) continue;
      const a = loaded.anchoring;
      const before = a.state === 'unanchored' ? ('unanchored' as const) : a.from > 0 ? ('partly' as const) : ('verified' as const);
      rows.push({ spec: j, label: j.label, file: kernel.display(j.path), entries: loaded.count, before, anchored: false });
    }
    const s = ctx.io.style;
    const folder = kernel.store.records.folder;
    const data = () => ({ journals: rows.map(({ spec: _s, ...r }) => r), anchored: rows.filter((r) => r.anchored).length, folder });
    const lines = rows.map(
      (r) =>
        `  ${r.before === 'verified' ? ' ' : '+'} ${r.label} (${r.file}): ${r.entries} entries, ${r.before === 'partly' ? 'partly anchored' : r.before} here`,
    );
    const todo = rows.filter((r) => r.before !== 'verified');
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
