import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { acceptJobGrant, grantsForWorkers } from '../../plugins/lifecycle/remote/job-grant.ts';
import { HOST_GRANT, makeLifecycle, makeRepo } from './lifecycle-fixture.ts';

const REMOTE = 'ssh://git.example/team/app.git';

async function keyFile(text = 'a-team-grant-key-0123456789') {
  const file = join(await mkdtemp(join(tmpdir(), 'sluice-key-')), 'commit-grant.key');
  await writeFile(file, `${text}\n`, { mode: 0o600 });
  return file;
}

describe('commit grants for workers', () => {
  it('the orchestrator signs one grant per requirement it may commit, bound to the remote; a worker accepts it only for that remote and requirement', async () => {
    const { lc } = await makeLifecycle(await makeRepo());
    const key = await keyFile();
    const { grants, refused } = await grantsForWorkers(lc, ['one', 'two'], REMOTE, { hostGrant: { ...HOST_GRANT, requirements: ['one'] }, grantKeyFile: key });
    assert.deepEqual([...grants.keys()], ['one']);
    assert.match(refused.get('two') ?? '', /does not list two/);
    const token = grants.get('one')!;
    const now = new Date();
    const accepted = await acceptJobGrant(lc.host, token, REMOTE, 'one', now, key);
    assert.ok('grant' in accepted && accepted.grant.requirements?.join() === 'one');
    const elsewhere = await acceptJobGrant(lc.host, token, 'ssh://git.example/team/other.git', 'one', now, key);
    assert.match('refused' in elsewhere ? elsewhere.refused : '', /bound to ssh:\/\/git\.example\/team\/app\.git, not .*other\.git/);
    const otherRequirement = await acceptJobGrant(lc.host, token, REMOTE, 'two', now, key);
    assert.match('refused' in otherRequirement ? otherRequirement.refused : '', /does not list two/);
    const later = await acceptJobGrant(lc.host, token, REMOTE, 'one', new Date(now.getTime() + 25 * 3600_000), key);
    assert.match('refused' in later ? later.refused : '', /expired/);
    const forged = await acceptJobGrant(lc.host, token, REMOTE, 'one', now, await keyFile('a-key-the-agent-made-itself-xx'));
    assert.match('refused' in forged ? forged.refused : '', /invalid signature/);
  });

  it('without its own authority the orchestrator makes no grant, whatever the project config says', async () => {
    const { lc } = await makeLifecycle(
      await makeRepo({ 'sluice.config.yaml': 'lifecycle:\n  commitAuthorization:\n    mode: agent\n    owner: agent\n    local_commit_authorized: true\n' }),
    );
    const { grants, refused } = await grantsForWorkers(lc, ['one'], REMOTE, {
      grantKeyFile: await keyFile(),
      userConfigFile: join(tmpdir(), 'no-such-user-config.yaml'),
    });
    assert.equal(grants.size, 0);
    assert.match(refused.get('one') ?? '', /a grant never comes from a file inside the work tree/);
  });
});
