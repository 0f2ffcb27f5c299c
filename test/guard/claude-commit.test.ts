import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { isPlainClaudeCommit } from '../../plugins/guard/claude-commit.ts';
import type { ShellScope } from '../../plugins/guard/path-checks.ts';
import { judgeShell } from '../../plugins/guard/shell-guard.ts';
import { decisionOrAsk } from './decision-or-ask.ts';

/**
 * Claude Code's commit is answered without the shell parser (claude-commit.ts). That shortcut may
 * only ever say what the parser says: every command it takes, the parser allows; commits whose
 * message could end the here-document early, run a substitution or carry sluice's trailer are left
 * to the parser.
 */
let base: string;
let scope: ShellScope;

const LINES = fc.oneof(
  fc.string({ maxLength: 30 }).filter((s) => !s.includes('\n')),
  fc.constantFrom(
    'EOF',
    ' EOF',
    '`ls`',
    '$(rm -rf .sdlc)',
    'Lifecycle-Requirement: add-login',
    "fix(auth): don't drop the session (refresh)",
    'Co-Authored-By: Claude <noreply@anthropic.com>',
    '"quoted" and \\ backslash',
    'docs: say why .sdlc/state.yaml is frozen',
    ')"',
    "'EOF'",
    '',
  ),
);
const COMMITS = fc
  .record({ prefix: fc.constantFrom('', 'git add -A && ', 'git add . && ', 'git add -p && '), lines: fc.array(LINES, { minLength: 1, maxLength: 6 }) })
  .map(({ prefix, lines }) => `${prefix}git commit -m "$(cat <<'EOF'\n${lines.join('\n')}\nEOF\n)"`);

describe("Claude Code's commit without the parser", () => {
  before(() => {
    base = mkdtempSync(join(tmpdir(), 'sluice-guard-commit-'));
    const project = join(base, 'app');
    mkdirSync(join(project, '.sdlc'), { recursive: true });
    writeFileSync(join(project, '.sdlc/state.yaml'), "current_phase: '1'\n");
    scope = { cwd: project, projectDir: project, places: { userConfigDir: join(base, 'config', 'sluice'), userCacheDir: join(base, 'cache', 'sluice') } };
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  it('takes only commands the parser allows', () => {
    let taken = 0;
    fc.assert(
      fc.property(COMMITS, (command) => {
        if (!isPlainClaudeCommit(command)) return;
        taken++;
        const full = decisionOrAsk(() => judgeShell(command, scope));
        assert.equal(full.verdict, 'allow', `${JSON.stringify(command)}: the parser says ${full.verdict} (${full.reason})`);
      }),
      { numRuns: 600 },
    );
    assert.ok(taken > 50, `the generator reaches the shape (${taken})`);
  });

  it('leaves the risky messages and other shapes to the parser', () => {
    const commit = (body: string, prefix = '') => `${prefix}git commit -m "$(cat <<'EOF'\n${body}\nEOF\n)"`;
    assert.equal(isPlainClaudeCommit(commit("fix(auth): don't drop it\n\nCo-Authored-By: Claude <noreply@anthropic.com>", 'git add -A && ')), true);
    for (const command of [
      commit('feat: login\n\nLifecycle-Requirement: add-login'),
      commit('x\nEOF\nrm -rf .sdlc'),
      commit('docs: `rm -rf .sdlc`'),
      commit('x $(rm -rf .sdlc)'),
      commit('x', 'rm -rf .sdlc && '),
      `${commit('x')} && rm -rf .sdlc`,
      commit('x').replace("'EOF'", 'EOF'),
    ])
      assert.equal(isPlainClaudeCommit(command), false, command);
  });
});
