import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ShellScope } from '../../plugins/guard/path-checks.ts';
import { judgeShell } from '../../plugins/guard/shell-guard.ts';

/**
 * "Only readers near the records", program by program: each command names `.sdlc/state.yaml` (or
 * the project root), so it is allowed only when every program in it only reads. The recorded
 * payloads (guard.test.ts) carry the attacks through the built CLI; these are the edges of each rule.
 */
let base: string;
let scope: ShellScope;

const verdict = (command: string) => judgeShell(command, scope).verdict;

describe("the guard lets only known readers near sluice's records", () => {
  before(() => {
    base = mkdtempSync(join(tmpdir(), 'sluice-guard-readers-'));
    const project = join(base, 'app');
    mkdirSync(join(project, '.sdlc'), { recursive: true });
    writeFileSync(join(project, '.sdlc/state.yaml'), "current_phase: '1'\n");
    scope = {
      cwd: project,
      projectDir: project,
      places: { userConfigDir: join(base, 'config', 'sluice'), userCacheDir: join(base, 'cache', 'sluice') },
      vars: { HOME: join(base, 'home') },
    };
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  const cases: [string, 'allow' | 'ask' | 'deny'][] = [
    // sed: printing scripts read; w, W, e, s///w, s///e, -i, -f write or run
    ["sed -n '/^current/p' .sdlc/state.yaml", 'allow'],
    ["sed -e 's/a/b/g' -e '3q' .sdlc/state.yaml", 'allow'],
    ["sed -n '1,/x/{p;}' .sdlc/state.yaml", 'allow'],
    ["sed 'y/abc/xyz/' .sdlc/state.yaml", 'allow'],
    ["sed -n '$W /tmp/x' .sdlc/state.yaml", 'ask'],
    ["sed 's|a|b|e' .sdlc/state.yaml", 'ask'],
    ['sed -f /tmp/script.sed .sdlc/state.yaml', 'ask'],
    ["sed -ni 'p' .sdlc/state.yaml", 'deny'],
    // awk: no output redirection, pipe, system() or program file
    ["awk -F: '{ n++ } END { print n }' .sdlc/state.yaml", 'allow'],
    ['awk \'{ print | "sh" }\' .sdlc/state.yaml', 'ask'],
    ['awk -f /tmp/prog.awk .sdlc/state.yaml', 'ask'],
    // sort, uniq, xxd, tree, less: the options and operands that write
    ['sort -u .sdlc/state.yaml', 'allow'],
    ['sort -o/tmp/x .sdlc/state.yaml', 'ask'],
    ['sort --output=/tmp/x .sdlc/state.yaml', 'ask'],
    ['uniq -f 1 .sdlc/state.yaml', 'allow'],
    ['uniq .sdlc/state.yaml /tmp/out', 'ask'],
    ['xxd -r -p /tmp/x .sdlc/state.yaml', 'ask'],
    ['less -o /tmp/log .sdlc/state.yaml', 'ask'],
    // find, git: reading forms only
    ['find .sdlc -name "*.yaml"', 'allow'],
    ['find .sdlc -name "*.yaml" -fprint /tmp/x', 'deny'],
    ['git log -p -- .sdlc/state.yaml', 'allow'],
    ['git -c core.pager=cat log .sdlc/state.yaml', 'ask'],
    ['git diff --output=/tmp/x .sdlc/state.yaml', 'ask'],
    // copies out read; copies onto the project do not
    ['cp .sdlc/state.yaml /tmp/state.yaml', 'allow'],
    ['cp /tmp/a /tmp/b .', 'ask'],
    // a loop, a function, a variable: what they name counts
    ['for f in .sdlc/*; do wc -l "$f"; done', 'allow'],
    ['for f in .sdlc/*; do ./fix "$f"; done', 'ask'],
    ['g() { cat "$1"; }; g .sdlc/state.yaml', 'allow'],
    ['g() { ./fix "$1"; }; g .sdlc/state.yaml', 'ask'],
    ['X=.sdlc/state.yaml; make "$X"', 'ask'],
    // commands that name nothing of sluice's are not this rule's business
    ['make && ./run-tests --fast', 'allow'],
    ['npm run build -- --out dist', 'allow'],
  ];
  for (const [command, expected] of cases) it(`${expected}: ${command}`, () => assert.equal(verdict(command), expected, command));
});
