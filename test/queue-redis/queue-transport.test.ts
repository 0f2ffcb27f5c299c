import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryHost, isSluiceError } from '../../core/index.ts';
import { checkTransport, parseRedisUrl, resolveQueueUrl } from '../../plugins/queue-redis/index.ts';

const none = { tls: {}, allowInsecure: false };

describe('queue URL and transport', () => {
  it('rediss:// is TLS with the configured CA; the shown URL never has the password', () => {
    const t = parseRedisUrl('rediss://:s3cret@queue.internal:6380/2', 'SLUICE_QUEUE_URL', { ca: 'PEM' });
    assert.deepEqual([t.host, t.port, t.db, t.password, t.tls], ['queue.internal', 6380, 2, 's3cret', { ca: 'PEM' }]);
    assert.equal(t.display, 'rediss://queue.internal:6380/2');
    assert.equal(parseRedisUrl('redis://127.0.0.1:6379/0').tls, undefined);
  });

  it('another machine needs a password and TLS unless the person allows it; loopback without a password is one warning', () => {
    assert.equal(checkTransport(parseRedisUrl('rediss://:pw@queue.internal:6380/0'), none), undefined);
    for (const url of ['redis://queue.internal:6379/0', 'redis://:pw@queue.internal:6379/0', 'rediss://queue.internal:6380/0'])
      assert.throws(
        () => checkTransport(parseRedisUrl(url), none),
        (e: unknown) => isSluiceError(e, 'QUEUE_URL_INSECURE') && e.exitCode === 2,
      );
    assert.match(checkTransport(parseRedisUrl('redis://queue.internal:6379/0'), { tls: {}, allowInsecure: true }) ?? '', /allowed by queue.allow_insecure/);
    assert.match(checkTransport(parseRedisUrl('redis://127.0.0.1:6379/0'), none) ?? '', /has no password/);
    assert.equal(checkTransport(parseRedisUrl('redis://:pw@127.0.0.1:6379/0'), none), undefined);
  });

  it('the URL from --queue, --queue-file, SLUICE_QUEUE_URL, then the config; SLUICE_QUEUE_PASSWORD fills one without; a password on the command line is refused', async () => {
    const host = createMemoryHost({
      files: { '/home/me/.config/sluice/queue-url': 'rediss://:filepw@q.internal:6380/0\n' },
      env: { SLUICE_QUEUE_URL: 'rediss://q.internal:6380/1', SLUICE_QUEUE_PASSWORD: 'p@ss' },
      modes: { '/home/me/.config/sluice/queue-url': 0o600 },
    });
    await assert.rejects(resolveQueueUrl(host, { flag: 'redis://:typed@127.0.0.1:6379/0', configWhat: 'config' }), (e: unknown) => {
      assert.ok(isSluiceError(e, 'USAGE'));
      assert.match(e.message, /password on the command line, where ps shows it/);
      assert.ok(!e.message.includes('typed'), 'the message does not repeat it');
      return true;
    });
    assert.equal((await resolveQueueUrl(host, { flag: 'redis://127.0.0.1:6379/0', configWhat: 'config' }))?.what, '--queue');
    const file = await resolveQueueUrl(host, { file: '/home/me/.config/sluice/queue-url', configWhat: 'config' });
    assert.equal(file?.url, 'rediss://:filepw@q.internal:6380/0');
    const env = await resolveQueueUrl(host, { config: 'redis://127.0.0.1:6379/0', configWhat: 'config' });
    assert.equal(env?.what, 'SLUICE_QUEUE_URL');
    assert.equal(parseRedisUrl(env!.url).password, 'p@ss');
    assert.equal(await resolveQueueUrl(createMemoryHost(), { configWhat: 'config' }), undefined);
  });
});
