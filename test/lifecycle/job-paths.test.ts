import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryHost, isSluiceError } from '../../core/index.ts';
import { seedTarget } from '../../plugins/lifecycle/remote/job-paths.ts';

describe("a job's seed paths", () => {
  const host = createMemoryHost({ files: { '/clone/README.md': 'x' } });
  const refused = (path: string) => assert.rejects(seedTarget(host, '/clone', 'alpha', path), (e: unknown) => isSluiceError(e, 'QUEUE_JOB_PATH_REFUSED'), path);

  it("only the requirement's own artifacts, state and journal", async () => {
    assert.equal(await seedTarget(host, '/clone', 'alpha', '.prizmkit/specs/alpha/spec.md'), '/clone/.prizmkit/specs/alpha/spec.md');
    assert.equal(await seedTarget(host, '/clone', 'alpha', '.prizmkit/state/workflows/alpha.json'), '/clone/.prizmkit/state/workflows/alpha.json');
    assert.equal(await seedTarget(host, '/clone', 'alpha', '.prizmkit/state/journal/alpha.jsonl'), '/clone/.prizmkit/state/journal/alpha.jsonl');
    for (const path of [
      '.git/config',
      '.git/info/attributes',
      '.git/hooks/pre-commit',
      '.GIT/config',
      '.prizmkit/specs/alpha/.git/config',
      '/etc/passwd',
      '.prizmkit/specs/alpha/../../../.git/config',
      '.prizmkit/specs/alpha/./spec.md',
      '.prizmkit/specs/beta/spec.md',
      'sluice.config.yaml',
      '.prizmkit/state/workflows/beta.json',
      '.prizmkit/specs/alpha\\..\\x',
      '',
    ])
      await refused(path);
  });
});
