import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { jsonError } from '../helpers/run-cli.ts';
import { sshKeygenMissing, throwawayKey } from '../helpers/ssh-keys.ts';
import { runSluice } from './sluice-cli.ts';

/**
 * Issue 22, `sluice anchor` by signature, through the built CLI with real ssh-keygen: on a second
 * machine (its own state folder) an honest project reads as "unanchored here"; a person signs the
 * anchor statement (`anchor --statement`, the journals and their heads) with a key in their own
 * allowed_signers (their config folder), and `anchor --signature` anchors it. A key not listed there,
 * a signature over another head, and no allowed_signers at all are refused and anchor nothing.
 */
describe('sluice anchor --signature', { skip: sshKeygenMissing }, () => {
  let root: string;
  let dir: string;
  let second: Record<string, string>;
  let person: ReturnType<typeof throwawayKey>;
  let stranger: ReturnType<typeof throwawayKey>;
  const cli = (env: Record<string, string>, ...args: string[]) => runSluice(dir, args, { SLUICE_USER: 'os-user', ...env });
  const anchoring = async () => JSON.parse((await cli(second, 'status', '--json')).stdout).records.anchor as string;
  const sign = async (key: string, text: string, name: string) => {
    const sig = execFileSync('ssh-keygen', ['-Y', 'sign', '-f', key, '-n', 'sluice-anchor', '-q'], { input: text });
    await writeFile(join(root, name), sig);
    return join(root, name);
  };

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'sluice-anchor-sig-'));
    dir = join(root, 'project');
    await mkdir(dir);
    const first = { XDG_STATE_HOME: join(root, 'first-state') };
    const init = await cli(first, 'init', '--profile', 'starter', '--name', 'anchored');
    assert.equal(init.code, 0, init.stderr);
    second = { XDG_STATE_HOME: join(root, 'second-state'), XDG_CONFIG_HOME: join(root, 'second-config') };
    person = throwawayKey(root, 'person', 'person@example.org');
    stranger = throwawayKey(root, 'stranger', 'stranger@example.org');
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('without allowed_signers in the config folder, refuses and anchors nothing', async () => {
    assert.equal(await anchoring(), 'unanchored');
    const statement = (await cli(second, 'anchor', '--statement')).stdout;
    const r = await cli(second, 'anchor', '--signature', await sign(person.keyFile, statement, 'early.sig'), '--json');
    assert.match(jsonError(r, 1).message, /no allowed_signers/);
    assert.equal(await anchoring(), 'unanchored');
  });

  it("refuses a key the person's allowed_signers does not list, and a signature over another head", async () => {
    await mkdir(join(root, 'second-config', 'sluice'), { recursive: true });
    await writeFile(join(root, 'second-config', 'sluice', 'allowed_signers'), `${person.signersLine}\n`);
    const statement = (await cli(second, 'anchor', '--statement')).stdout;
    assert.match(statement, /^journal: \.sdlc\/journal\.jsonl sequence: 1 head: [0-9a-f]{64}$/m);
    const byStranger = await cli(second, 'anchor', '--signature', await sign(stranger.keyFile, statement, 'stranger.sig'), '--json');
    assert.match(jsonError(byStranger, 1).message, /does not list/);
    const otherHead = statement.replace(/sequence: 1 head: [0-9a-f]{64}/, `sequence: 1 head: ${'0'.repeat(64)}`);
    const forOther = await cli(second, 'anchor', '--signature', await sign(person.keyFile, otherHead, 'other.sig'), '--json');
    assert.match(jsonError(forOther, 1).message, /not over the anchor statement/);
    assert.equal(await anchoring(), 'unanchored');
  });

  it("anchors with the person's signature over the statement: the history reads as verified", async () => {
    const statement = (await cli(second, 'anchor', '--statement')).stdout;
    const r = await cli(second, 'anchor', '--signature', await sign(person.keyFile, statement, 'good.sig'), '--json');
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(JSON.parse(r.stdout).anchored, 1);
    assert.equal(await anchoring(), 'verified');
  });
});
