import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QUEUE_KEY_ENV, queueKeyFrom, type QueueKey } from '../../core/index.ts';

/**
 * A queue key of the test's own (0600 in a 0700 temp folder), named in this process's environment so
 * every sluice the test starts (workers, orchestrators, the CLI) signs and verifies with it, as the
 * machines of one team share theirs. Never the person's own key.
 */
export function useTestQueueKey(): QueueKey {
  const existing = process.env[QUEUE_KEY_ENV];
  if (existing?.includes('sluice-test-queue-key-')) return queueKeyFrom(readFileSync(existing, 'utf8').trim(), existing);
  const file = join(mkdtempSync(join(tmpdir(), 'sluice-test-queue-key-')), 'queue.key');
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  process.env[QUEUE_KEY_ENV] = file;
  return queueKeyFrom(secret, file);
}
