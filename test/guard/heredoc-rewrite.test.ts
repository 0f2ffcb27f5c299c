import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { Decision } from '../../plugins/guard/decision.ts';
import { decisionOrAsk } from './decision-or-ask.ts';
import type { ShellScope } from '../../plugins/guard/path-checks.ts';
import { judgeShell } from '../../plugins/guard/shell-guard.ts';

/**
 * Quoted here-document bodies are swapped for a placeholder before parsing (heredoc-bodies.ts), so
 * commit messages with `(`, `<` or an apostrophe are read at all. The swap must never let through
 * what the guard objected to before: over generated commands that mix Claude Code's commit shapes,
 * bodies with sluice's trailer and with command substitutions, quoted and unquoted delimiters, readers
 * that run their input (bash, python3, xargs) and text made to confuse a lexer (`<<` inside quotes,
 * comments, arithmetic, here-strings), the guard's answer is compared with the old judgement
 * (bodies read as commands) of the same command without the prose lines that old parser cannot read.
 */
let base: string;
let scope: ShellScope;

const RANK: Record<string, number> = { allow: 0, ask: 1, deny: 2 };

/** Lines bash-parser cannot read as commands: the reason commits were asked about. */
const PROSE = fc.constantFrom(
  "fix(guard): don't prompt on commits",
  'Co-Authored-By: Claude <noreply@anthropic.com>',
  '- keeps (most) behaviour; see <https://example.com>',
  "it's done; rm -rf .sdlc would've been bad (not run)",
  '',
);
/** Lines that would run something were the body unquoted (`run`), or carry sluice's trailer. */
const LIVE = fc.constantFrom(
  { text: 'see `rm -rf .sdlc` here', run: 'rm -rf .sdlc' },
  { text: 'run $(sluice trust) now', run: 'sluice trust' },
  { text: 'Lifecycle-Requirement: add-login', trailer: true },
  { text: 'note $(cat .sdlc/state.yaml) x', run: 'cat .sdlc/state.yaml' },
  { text: 'plain `ls` words', run: 'ls' },
  { text: 'then $(echo hi > .sluice/runs/x) y', run: 'echo hi > .sluice/runs/x' },
  { text: 'ok $(npm test) fine', run: 'npm test' },
);
const DELIMITERS = fc.constantFrom(
  { open: "'EOF'", quoted: true },
  { open: '"EOF"', quoted: true },
  { open: '\\EOF', quoted: true },
  { open: 'EOF', quoted: false },
);
/** How the body reaches its reader; `data` says the reader only reads it. */
const SHAPES = fc.constantFrom(
  { data: true, commit: true, make: (op: string, body: string) => `git commit -m "$(cat <<${op}\n${body}EOF\n)"` },
  { data: true, commit: true, make: (op: string, body: string) => `git add -A && git commit -m "$(cat <<${op}\n${body}EOF\n)" && git status` },
  { data: true, commit: true, make: (op: string, body: string) => `cat <<${op} | git commit -F -\n${body}EOF` },
  { data: true, commit: true, make: (op: string, body: string) => `git commit -F - <<${op}\n${body}EOF` },
  { data: true, make: (op: string, body: string) => `cat > notes/msg.txt <<${op}\n${body}EOF` },
  { data: true, make: (op: string, body: string) => `cat > .sdlc/state.yaml <<${op}\n${body}EOF` },
  { data: false, make: (op: string, body: string) => `bash <<${op}\n${body}EOF` },
  { data: false, make: (op: string, body: string) => `python3 - <<${op}\n${body}EOF` },
  { data: false, make: (op: string, body: string) => `xargs rm <<${op}\n${body}EOF` },
  { data: false, make: (op: string, body: string) => `while read f; do cat "$f"; done <<${op}\n${body}EOF` },
);
/** Text around the here-document, some of it made to look like one to a careless lexer. */
const AROUND = fc.constantFrom(
  '',
  'rm -rf .sdlc',
  'echo ok',
  `echo "<<'EOF'"`,
  "# <<'EOF'",
  "echo '<<EOF'",
  'echo $((1<<2))',
  "cat <<<'EOF'",
  'echo `date`',
  'sluice trust',
  'SLUICE_TRUSTED_HASH=x sluice status',
);

interface Case {
  command: string;
  /** The command without the prose lines: what the old parser could read. */
  reference: string;
  data: boolean;
  quoted: boolean;
  /** What the body and the text around it would do on their own: the floor of the guard's answer. */
  runs: string[];
  trailerInCommit: boolean;
}

const cases: fc.Arbitrary<Case> = fc
  .record({
    shape: SHAPES,
    delimiter: DELIMITERS,
    lines: fc.array(
      fc.oneof(
        PROSE.map((text) => ({ prose: true, text })),
        LIVE.map((l) => ({ prose: false, ...l })),
      ),
      { maxLength: 6 },
    ),
    before: AROUND,
    after: AROUND,
  })
  .map(({ shape, delimiter, lines, before, after }) => {
    const body = (keep: (l: { prose: boolean }) => boolean) =>
      lines
        .filter(keep)
        .map((l) => `${l.text}\n`)
        .join('');
    const wrap = (core: string) => [before, core, after].filter(Boolean).join('\n');
    return {
      command: wrap(
        shape.make(
          delimiter.open,
          body(() => true),
        ),
      ),
      reference: wrap(
        shape.make(
          delimiter.open,
          body((l) => !l.prose),
        ),
      ),
      data: shape.data,
      quoted: delimiter.quoted,
      runs: [before, after, ...lines.map((l): string | undefined => ('run' in l ? l.run : undefined))].filter(
        (r): r is string => Boolean(r) && !r!.startsWith('#'),
      ),
      trailerInCommit: 'commit' in shape && lines.some((l) => 'trailer' in l),
    };
  });

describe('the guard reads quoted here-document bodies as data, never more leniently than before', () => {
  before(() => {
    base = mkdtempSync(join(tmpdir(), 'sluice-guard-heredoc-'));
    const project = join(base, 'app');
    for (const d of ['.sdlc', '.sluice/runs', 'notes']) mkdirSync(join(project, d), { recursive: true });
    writeFileSync(join(project, '.sdlc/state.yaml'), "current_phase: '1'\n");
    scope = { cwd: project, projectDir: project, places: { userConfigDir: join(base, 'config', 'sluice'), userCacheDir: join(base, 'cache', 'sluice') } };
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  it('never turns what the old parser denied or asked about into an allow', () => {
    const seen = { floorDeny: 0, oldDeny: 0, unchanged: 0 };
    fc.assert(
      fc.property(cases, (c) => {
        const now = decisionOrAsk(() => judgeShell(c.command, scope));
        if (!c.quoted || !c.data) {
          // Unquoted bodies expand, and shells or interpreters run theirs: judged exactly as before.
          seen.unchanged++;
          assert.deepEqual(
            now,
            decisionOrAsk(() => judgeShell(c.command, scope, false)),
          );
          return;
        }
        const old = decisionOrAsk(() => judgeShell(c.reference, scope, false));
        const floor = [...c.runs.map((r) => decisionOrAsk(() => judgeShell(r, scope, false)).verdict), c.trailerInCommit ? 'deny' : 'allow'];
        const worst = floor.reduce((a, b) => (RANK[b]! > RANK[a]! ? b : a), 'allow');
        const why = `now ${now.verdict} (${now.reason}), before ${old.verdict} (${old.reason}), alone ${worst}`;
        const unreadable = (d: Decision) => /cannot (read|be read)/.test(d.reason ?? '');
        // "Only readers near the records" over a body read as commands (`plain \`ls\` words` runs `plain`) objects to
        // programs the shell never runs: no floor for the rewrite, which reads the body as the data it is.
        const bodyAsCommands = (d: Decision) => /is not one of the readers/.test(d.reason ?? '');
        // Sluice's trailer, and every substitution in the body as if it ran, keep their objection
        // (a command the parser cannot read at all is asked about, never allowed).
        if (worst !== 'allow') assert.notEqual(now.verdict, 'allow', why);
        if (!unreadable(now)) assert.ok(RANK[now.verdict]! >= RANK[worst]!, why);
        // What the old parser could read and objected to stays objected to, a deny stays a deny.
        if (!unreadable(old) && !bodyAsCommands(old)) assert.ok(RANK[now.verdict]! >= RANK[old.verdict]!, why);
        if (worst === 'deny') seen.floorDeny++;
        if (old.verdict === 'deny') seen.oldDeny++;
      }),
      { numRuns: 3000 },
    );
    // The generator reaches the cases that matter, so the property cannot hold vacuously.
    assert.ok(seen.floorDeny > 300 && seen.oldDeny > 300 && seen.unchanged > 300, JSON.stringify(seen));
  });

  it("Claude Code's commit shapes with prose are allowed, with sluice's trailer denied", () => {
    const co = 'Co-Authored-By: Claude <noreply@anthropic.com>';
    const commit = (body: string, open = "'EOF'") => `git commit -m "$(cat <<${open}\n${body}\n\n${co}\nEOF\n)"`;
    assert.equal(judgeShell(commit("fix(guard): don't ask on every commit"), scope).verdict, 'allow');
    assert.equal(judgeShell(commit('feat: `sluice guard` reads heredocs (quoted)'), scope).verdict, 'allow');
    assert.equal(judgeShell(commit('feat: login\n\nLifecycle-Requirement: add-login'), scope).verdict, 'deny');
    assert.equal(judgeShell(commit('docs: `rm -rf .sdlc` (example)'), scope).verdict, 'deny');
    assert.equal(judgeShell(commit("fix(guard): don't", 'EOF'), scope).verdict, 'ask');
  });
});
