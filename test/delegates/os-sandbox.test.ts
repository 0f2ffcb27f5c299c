import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BWRAP_PROBE_ARGS, protectedUserFolders, userFolders } from '../../core/index.ts';
import { accountHome } from '../../plugins/host-node/private-files.ts';
import { runSluice } from '../hardening/cli-bundle.ts';
import { trustedEnv } from '../helpers/trusted-env.ts';

/**
 * The OS sandbox as a user meets it, through the built CLI: a write-mode delegate whose CLI (a node
 * script on the shell backend) tries what an agent would: overwrite `.sdlc/state.yaml`, install
 * `.git/hooks/post-commit`, read sluice's keys, and does ordinary work. Linux with bubblewrap only.
 */
const bwrapHere = spawnSync('bwrap', BWRAP_PROBE_ARGS, { stdio: 'ignore' }).status === 0;
const skip = bwrapHere ? false : 'bubblewrap (bwrap) is not installed here or cannot start a sandbox';

const AGENT = `
const fs = require('node:fs');
const here = process.cwd();
const tryIt = (f) => { try { return f() ?? 'done'; } catch (e) { return e.code ?? String(e); } };
const report = {
  state: tryIt(() => fs.writeFileSync('.sdlc/state.yaml', 'forged: true\\n')),
  hook: tryIt(() => fs.writeFileSync('.git/hooks/post-commit', '#!/bin/sh\\necho gotcha\\n', { mode: 0o755 })),
  gitConfig: tryIt(() => fs.appendFileSync('.git/config', '[core]\\n\\thooksPath = /tmp\\n')),
  config: tryIt(() => fs.writeFileSync('sluice.config.yaml', 'sandbox: off\\n')),
  keys: JSON.parse(process.env.KEY_FILES).map((f) => tryIt(() => fs.readFileSync(f, 'utf8'))),
  folders: JSON.parse(process.env.USER_FOLDERS).map((d) => tryIt(() => fs.readdirSync(d).join(','))),
  plant: tryIt(() => fs.writeFileSync(process.env.PLANT, 'trust me')),
  // Rename the folder that holds a read-only one, and put a new one in its place.
  // (put back at once where it worked: without a sandbox, the rest of the test still needs the project).
  swapGit: tryIt(() => (fs.renameSync('.git', 'old-git'), fs.renameSync('old-git', '.git'))),
  swapProject: tryIt(() => (fs.renameSync(here, here + '-moved'), fs.renameSync(here + '-moved', here))),
  work: tryIt(() => fs.writeFileSync('work.txt', 'ordinary work\\n')),
  artifact: tryIt(() => fs.writeFileSync('.sdlc/artifacts/note.md', 'agent notes\\n')),
};
process.stdout.write(JSON.stringify(report));
`;

interface Report {
  state: string;
  hook: string;
  gitConfig: string;
  config: string;
  keys: string[];
  folders: string[];
  plant: string;
  swapGit: string;
  swapProject: string;
  work: string;
  artifact: string;
}

async function project() {
  const root = await mkdtemp(join(tmpdir(), 'sluice-sandbox-'));
  execFileSync('git', ['init', '-q'], { cwd: root });
  mkdirSync(join(root, '.sdlc', 'artifacts'), { recursive: true });
  writeFileSync(join(root, '.sdlc', 'state.yaml'), 'phase: 1\n');
  const home = await mkdtemp(join(tmpdir(), 'sluice-sandbox-home-'));
  const env: Record<string, string> = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'xdg-config'),
    XDG_STATE_HOME: join(home, 'xdg-state'),
    XDG_CACHE_HOME: join(home, 'xdg-cache'),
  };
  const folders = userFolders((n) => env[n], accountHome);
  // Keys where sluice keeps them for this environment (XDG config and state); the account home's grant
  // key (the real user's, never written here) must read as missing whether it exists or not.
  const made = [join(folders.config, 'commit-grant.key'), join(folders.state, 'anchor.key')];
  const keys = [...made, join(folders.account, 'commit-grant.key')];
  for (const key of made) {
    mkdirSync(join(key, '..'), { recursive: true, mode: 0o700 });
    writeFileSync(key, `SECRET-KEY-${key.length}\n`, { mode: 0o600 });
  }
  // Every folder the sandbox hides (the account home's are only listed, never written here).
  const visible = protectedUserFolders((n) => env[n], accountHome);
  writeFileSync(join(root, 'agent.cjs'), AGENT);
  const agentEnv = {
    KEY_FILES: JSON.stringify(keys),
    USER_FOLDERS: JSON.stringify(visible),
    PLANT: join(folders.state, 'anchor.json'),
  };
  writeFileSync(join(root, 'sluice.config.yaml'), JSON.stringify({ delegates: { shell: { command: process.execPath, args: ['agent.cjs'], env: agentEnv } } }));
  return { root, keys, folders, env: { ...env, ...(await trustedEnv(root)) } };
}

const run = (root: string, env: Record<string, string>, ...args: string[]) =>
  runSluice(root, ['delegate', '--to', 'shell', '--json', ...args, 'do the task'], env);

describe('AI CLIs run in the OS sandbox', { skip }, () => {
  it('a write-mode run cannot change the records, git hooks or config, cannot see any key, and does its ordinary work', async () => {
    const { root, env } = await project();
    const r = await run(root, env, '--mode', 'write');
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout);
    assert.equal(doc.sandbox, 'bubblewrap');
    const report = JSON.parse(doc.text) as Report;
    assert.deepEqual([report.state, report.hook, report.gitConfig, report.config], ['EROFS', 'EROFS', 'EROFS', 'EROFS']);
    assert.deepEqual(report.keys, ['ENOENT', 'ENOENT', 'ENOENT'], 'no key file is visible');
    assert.ok(
      report.folders.every((f) => f === ''),
      `sluice's user folders look empty inside: ${report.folders}`,
    );
    assert.equal(report.plant, 'EROFS', 'nothing can be planted in a user folder');
    assert.deepEqual([report.swapGit, report.swapProject], ['EBUSY', 'EBUSY'], 'a folder holding a read-only one cannot be swapped out');
    assert.deepEqual([report.work, report.artifact], ['done', 'done']);
    assert.equal(readFileSync(join(root, '.sdlc', 'state.yaml'), 'utf8'), 'phase: 1\n');
    assert.equal(existsSync(join(root, '.git', 'hooks', 'post-commit')), false);
    assert.doesNotMatch(readFileSync(join(root, '.git', 'config'), 'utf8'), /hooksPath/);
    assert.equal(readFileSync(join(root, 'work.txt'), 'utf8'), 'ordinary work\n');
    assert.doesNotMatch(r.stdout + readFileSync(doc.transcriptPath, 'utf8'), /SECRET-KEY/);
    assert.match(readFileSync(doc.transcriptPath, 'utf8'), /mode=write sandbox=bubblewrap/);
  });

  it('an analysis run cannot write anywhere in the work tree', async () => {
    const { root, env } = await project();
    const r = await run(root, env, '--mode', 'analysis');
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(JSON.parse(r.stdout).text) as Report;
    assert.deepEqual([report.work, report.artifact, report.state], ['EROFS', 'EROFS', 'EROFS']);
    assert.equal(existsSync(join(root, 'work.txt')), false);
  });

  it('a .git/hooks folder that does not exist yet cannot be made and filled either', async () => {
    const { root, env } = await project();
    execFileSync('rm', ['-rf', join(root, '.git', 'hooks')]);
    const r = await run(root, env, '--mode', 'write');
    assert.equal(JSON.parse(JSON.parse(r.stdout).text).hook, 'EROFS');
    assert.equal(existsSync(join(root, '.git', 'hooks', 'post-commit')), false);
  });

  it('--sandbox off runs unsandboxed and says so in the result and the transcript', async () => {
    const { root, env } = await project();
    const r = await run(root, env, '--mode', 'write', '--sandbox', 'off');
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout);
    assert.equal(doc.sandbox, 'off');
    assert.match(readFileSync(doc.transcriptPath, 'utf8'), /sandbox=off/);
    assert.equal(JSON.parse(doc.text).state, 'done', 'the case under test: without the sandbox the record is writable');
  });
});

describe('sandbox: off in the project config', { skip }, () => {
  it('is a choice a person trusts: written by anyone else it stops the run (WORKSPACE_UNTRUSTED); trusted, the run is unsandboxed and says so', async () => {
    const { root, env } = await project();
    const config = JSON.parse(readFileSync(join(root, 'sluice.config.yaml'), 'utf8'));
    writeFileSync(join(root, 'sluice.config.yaml'), JSON.stringify({ ...config, sandbox: 'off' }));
    const refused = await run(root, env, '--mode', 'write');
    assert.equal(refused.code, 2, refused.stderr);
    assert.match(refused.stdout, /WORKSPACE_UNTRUSTED/);
    assert.match(refused.stdout, /sandbox: off/);
    assert.equal(existsSync(join(root, 'work.txt')), false, 'nothing ran');
    const trusted = await run(root, { ...env, ...(await trustedEnv(root)) }, '--mode', 'write');
    assert.equal(trusted.code, 0, trusted.stderr);
    assert.equal(JSON.parse(trusted.stdout).sandbox, 'off');
  });
});

describe('a machine without the OS sandbox', () => {
  async function noSandboxPath(): Promise<string> {
    const bin = await mkdtemp(join(tmpdir(), 'sluice-sandbox-path-'));
    for (const tool of ['env', 'sh', 'git']) symlinkSync(execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim(), join(bin, tool));
    return bin;
  }

  it('--sandbox required fails closed with SANDBOX_UNAVAILABLE (exit 2) and runs nothing', async () => {
    const { root, env } = await project();
    const r = await run(root, { ...env, PATH: await noSandboxPath() }, '--mode', 'write', '--sandbox', 'required');
    assert.equal(r.code, 2, r.stderr);
    assert.equal(JSON.parse(r.stdout).error.code, 'SANDBOX_UNAVAILABLE');
    assert.equal(readFileSync(join(root, '.sdlc', 'state.yaml'), 'utf8'), 'phase: 1\n');
    assert.equal(existsSync(join(root, 'work.txt')), false, 'the CLI never started');
  });

  it('sandbox: required in the config fails closed the same way', async () => {
    const { root, env } = await project();
    const config = JSON.parse(readFileSync(join(root, 'sluice.config.yaml'), 'utf8'));
    writeFileSync(join(root, 'sluice.config.yaml'), JSON.stringify({ ...config, sandbox: 'required' }));
    const r = await run(root, { ...env, ...(await trustedEnv(root)), PATH: await noSandboxPath() }, '--mode', 'write');
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr + r.stdout, /SANDBOX_UNAVAILABLE/);
  });

  it('auto runs unsandboxed, says so in one line, and records it', async () => {
    const { root, env } = await project();
    const r = await run(root, { ...env, PATH: await noSandboxPath() }, '--mode', 'write');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr.match(/no OS sandbox/g)?.length, 1, r.stderr);
    assert.equal(JSON.parse(r.stdout).sandbox, 'unavailable');
  });
});
