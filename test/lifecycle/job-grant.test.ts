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
  it('the orchestrator signs one grant per requirement it may commit, bound to the remote; a worker (holding no grant key) accepts it only for that remote and requirement', async () => {
    const { lc } = await makeLifecycle(await makeRepo());
    const key = await keyFile();
    const { grants, refused } = await grantsForWorkers(lc, ['one', 'two'], REMOTE, { hostGrant: { ...HOST_GRANT, requirements: ['one'] }, grantKeyFile: key });
    assert.deepEqual([...grants.keys()], ['one']);
    assert.match(refused.get('two') ?? '', /does not list two/);
    const token = grants.get('one')!;
    const now = new Date();
    const accepted = acceptJobGrant(token, REMOTE, 'one', now);
    assert.ok('grant' in accepted && accepted.grant.requirements?.join() === 'one');
    const elsewhere = acceptJobGrant(token, 'ssh://git.example/team/other.git', 'one', now);
    assert.match('refused' in elsewhere ? elsewhere.refused : '', /bound to ssh:\/\/git\.example\/team\/app\.git, not .*other\.git/);
    const otherRequirement = acceptJobGrant(token, REMOTE, 'two', now);
    assert.match('refused' in otherRequirement ? otherRequirement.refused : '', /does not list two/);
    const later = acceptJobGrant(token, REMOTE, 'one', new Date(now.getTime() + 25 * 3600_000));
    assert.match('refused' in later ? later.refused : '', /expired/);
    // Its authenticity is the signed job's (the worker holds no grant key); what is no grant is still refused.
    const garbled = acceptJobGrant('not-a-grant', REMOTE, 'one', now);
    assert.match('refused' in garbled ? garbled.refused : '', /is not "<payload>.<signature>"/);
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
