import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { MessageFile } from '../../plugins/guard/commit-message.ts';
import { MESSAGE_FILE_LIMIT, readMessageFile } from '../../plugins/guard/message-file.ts';
import type { ShellScope } from '../../plugins/guard/path-checks.ts';
import { judgeShell } from '../../plugins/guard/shell-guard.ts';

/**
 * A lifecycle commit made by hand with its message in a file the agent wrote earlier (`git commit
 * -F msg.txt`), or reusing a message that carries the trailer (`-C`, `--amend`), or with a git hook
 * that adds it: the guard reads the file (bounded, never quoting it) and asks about what it cannot see.
 */
const PROJECT = '/work/app';
const SECRET = 'launch-code-4471';
const scope: ShellScope = { cwd: PROJECT, projectDir: PROJECT, places: { userConfigDir: '/home/dev/.config/sluice', userCacheDir: '/home/dev/.cache/sluice' } };

/** A fake file system for the guard's reader: what it was asked to read, and what it found. */
function fakeFiles(files: Record<string, MessageFile>): { read: (p: string) => MessageFile; asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    read: (p) => {
      asked.push(p);
      return files[p] ?? { problem: 'missing' };
    },
  };
}

const files = {
  [`${PROJECT}/msg.txt`]: { text: `feat: login\n\n${SECRET}\nLifecycle-Requirement: add-login\n` },
  [`${PROJECT}/clean.txt`]: { text: `fix: typo\n\n${SECRET}\n` },
  [`${PROJECT}/sub/msg.txt`]: { text: 'x\n\nlifecycle-requirement: r1\n' },
  [`${PROJECT}/fifo`]: { problem: 'not a regular file' as const },
};

function judge(command: string, s: ShellScope = scope) {
  const fake = fakeFiles(files);
  return { ...judgeShell(command, s, true, fake.read), asked: fake.asked };
}

describe('git commit with its message in a file', () => {
  const denied = [
    'git commit -F msg.txt',
    'git commit --file=msg.txt',
    'git commit --file msg.txt',
    'git commit -Fmsg.txt',
    'git commit -aF msg.txt',
    'git commit --fil=msg.txt',
    `git commit -F ${PROJECT}/msg.txt`,
    'git commit -t msg.txt',
    'git commit --template=msg.txt',
    'git -c commit.template=msg.txt commit -m x',
    'git -C sub commit -F msg.txt',
    'git add -A && git commit -F ./msg.txt',
    'env GIT_AUTHOR_NAME=x git commit -F msg.txt',
  ];
  for (const command of denied) {
    it(`denies ${command} (the file carries the trailer) without quoting the file`, () => {
      const got = judge(command);
      assert.equal(got.verdict, 'deny', String(got.reason));
      assert.match(got.reason!, /Lifecycle-Requirement trailer/);
      assert.ok(!got.reason!.includes(SECRET) && !got.reason!.includes('add-login'), `the reason quotes the file: ${got.reason}`);
    });
  }

  it('resolves the file from where the command runs (cd, git -C)', () => {
    assert.equal(judge('git commit -F ../msg.txt', { ...scope, cwd: `${PROJECT}/src` }).verdict, 'deny');
    assert.deepEqual(judge('cd sub && git commit -F msg.txt').asked, [`${PROJECT}/sub/msg.txt`]);
    assert.deepEqual(judge('git -C sub commit -F msg.txt').asked, [`${PROJECT}/sub/msg.txt`]);
  });

  it('lets a commit whose message file is clean through', () => {
    for (const command of ['git commit -F clean.txt', 'git commit --file=clean.txt -a', 'git commit --amend -F clean.txt', 'git commit -t clean.txt -m x'])
      assert.equal(judge(command).verdict, 'allow', command);
  });

  it('asks when the file cannot be known or checked', () => {
    for (const command of [
      'git commit -F "$MSG"',
      'git commit --file=$(mktemp)',
      'git commit -F missing.txt',
      'git commit -F fifo',
      'cd "$D" && git commit -F msg2.txt',
      'printf "x" > clean.txt && git commit -F clean.txt',
      'python3 gen.py clean.txt; git commit --file=clean.txt',
    ]) {
      const got = judge(command);
      assert.equal(got.verdict, 'ask', `${command}: ${String(got.reason)}`);
    }
  });

  it('reads standard input from the command itself (-F -)', () => {
    assert.equal(judge("git commit -F - <<'EOF'\nfix: x\nEOF").verdict, 'allow');
    assert.equal(judge("git commit -F - <<'EOF'\nfix: x\n\nLifecycle-Requirement: r\nEOF").verdict, 'deny');
  });

  it("never reads sluice's user config folder for a message", () => {
    const got = judge('git commit -F /home/dev/.config/sluice/commit-grant.key');
    assert.equal(got.verdict, 'deny');
    assert.deepEqual(got.asked, []);
  });
});

describe('git commit reusing a message', () => {
  for (const command of [
    'git commit -C HEAD',
    'git commit --reuse-message=HEAD~1',
    'git commit --reuse-message HEAD',
    'git commit -c HEAD',
    'git commit --reedit-message=HEAD',
    'git commit --amend',
    'git commit --amend --no-edit',
    'git commit -a --amend --no-edit',
    'git commit --fixup=amend:HEAD',
    'git commit --fixup reword:HEAD~2',
    'git commit --squash=HEAD',
    'git commit -m x -e',
    'git commit',
  ]) {
    it(`asks about ${command}`, () => {
      const got = judge(command);
      assert.equal(got.verdict, 'ask', String(got.reason));
      assert.match(got.reason!, /existing commit|editor/);
    });
  }

  it('lets a new message through (-m, --amend -m, a plain --fixup)', () => {
    for (const command of ['git commit -m "fix: x"', 'git commit -am x', 'git commit --amend -m "fix: y"', 'git commit --fixup=HEAD', 'git commit -m x -- src'])
      assert.equal(judge(command).verdict, 'allow', command);
  });
});

/** One test a row: the command's verdict, and no reason quoting a message file. */
function verdicts(rows: [string, 'allow' | 'ask' | 'deny'][]): void {
  for (const [command, verdict] of rows) {
    it(`${verdict}: ${command.split('\n')[0]}`, () => {
      const got = judge(command);
      assert.equal(got.verdict, verdict, String(got.reason));
      if (got.reason) assert.ok(!got.reason.includes(SECRET));
    });
  }
}

describe("git's other commit makers", () => {
  verdicts([
    ['git merge -F msg.txt feature', 'deny'],
    ['git merge --file=msg.txt feature', 'deny'],
    ["git merge -m 'Merge' -m 'Lifecycle-Requirement: r' feature", 'deny'],
    ['git commit-tree -F msg.txt abc123', 'deny'],
    ['git commit-tree -Fmsg.txt abc123', 'deny'],
    ['git merge -F clean.txt feature', 'allow'],
    ['git merge feature', 'allow'],
    ['git cherry-pick abc123', 'ask'],
    ['git cherry-pick -n abc123', 'allow'],
    ['git cherry-pick --abort', 'allow'],
  ]);
});

describe('git hooks and settings that could add the trailer', () => {
  verdicts([
    ['git config core.hooksPath .myhooks', 'deny'],
    ['git config --local core.hooksPath .myhooks', 'deny'],
    ['git -c core.hooksPath=.myhooks commit -m x', 'deny'],
    ['cat > .git/hooks/prepare-commit-msg <<EOF\n#!/bin/sh\nEOF', 'deny'],
    ['cp my-hook .git/hooks/commit-msg', 'deny'],
    ['git config trailer.lr.key Lifecycle-Requirement', 'ask'],
    ['sed -i s/a/b/ .git/config', 'ask'],
    ['git config --get core.hooksPath', 'allow'],
    ['git config core.hooksPath', 'allow'],
    ['git config user.name "Dev"', 'allow'],
    ['GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.hooksPath GIT_CONFIG_VALUE_0=h git commit -m x', 'deny'],
    ["env GIT_CONFIG_PARAMETERS=\"'core.hooksPath'='h'\" git push", 'deny'],
    ['git -c "$SETTING" commit -m x', 'ask'],
    ['git commit --dry-run', 'allow'],
  ]);
});

describe("the guard's own reader of message files", () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'sluice-msgfile-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a regular file', () => {
    writeFileSync(join(dir, 'm.txt'), 'fix: x\n');
    assert.deepEqual(readMessageFile(join(dir, 'm.txt')), { text: 'fix: x\n' });
  });

  it('says a missing file is missing', () => {
    assert.deepEqual(readMessageFile(join(dir, 'none.txt')), { problem: 'missing' });
  });

  it('refuses a FIFO without waiting for a writer, and a device', () => {
    const fifo = join(dir, 'pipe');
    try {
      execFileSync('mkfifo', [fifo]);
    } catch {
      return; // no mkfifo here: the device case below still runs
    }
    assert.deepEqual(readMessageFile(fifo), { problem: 'not a regular file' });
    assert.deepEqual(readMessageFile('/dev/zero'), { problem: 'not a regular file' });
  });

  it('refuses a file longer than its limit instead of checking half of it', () => {
    writeFileSync(join(dir, 'big.txt'), `${'x'.repeat(MESSAGE_FILE_LIMIT)}\nLifecycle-Requirement: r\n`);
    assert.deepEqual(readMessageFile(join(dir, 'big.txt')), { problem: 'too large' });
    assert.equal(judgeShell(`git commit -F ${join(dir, 'big.txt')}`, scope).verdict, 'ask');
  });
});
