import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { colorEnabled } from '../../plugins/cli/terminal-style.ts';
import { runSluice } from '../sdlc/sluice-cli.ts';

const ESC = '\u001b[';

/** What scripts and people expect of any CLI: usage errors exit 2, typos are caught, colour obeys the conventions. */
describe('CLI conventions', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sluice-conventions-'));
    const init = await runSluice(dir, ['init', '--profile', 'starter', '--name', 'Conv', '--type', 'library']);
    assert.equal(init.code, 0, init.stderr);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('a group command without its subcommand prints the group help on stderr and exits 2', async () => {
    const r = await runSluice(dir, ['lifecycle']);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /Usage: sluice lifecycle/);
    assert.match(r.stderr, /start \[options\] <slug>/);
    assert.match(r.stderr, /USAGE: a command is missing/);
  });

  it('`sluice --json` alone is a usage error, as one JSON document', async () => {
    const r = await runSluice(dir, ['--json']);
    assert.equal(r.code, 2);
    const doc = JSON.parse(r.stdout) as { ok: boolean; error: { code: string } };
    assert.equal(doc.ok, false);
    assert.equal(doc.error.code, 'USAGE');
  });

  it('every --json document has one envelope: ok first, true exactly when the exit code is 0', async () => {
    const status = await runSluice(dir, ['status', '--json']);
    assert.equal(status.code, 0);
    const doc = JSON.parse(status.stdout) as Record<string, unknown>;
    assert.equal(Object.keys(doc)[0], 'ok');
    assert.equal(doc.ok, true);
    const gate = await runSluice(dir, ['gate', '--json']);
    assert.equal(gate.code, 1, 'a blank discovery phase is blocked');
    const blocked = JSON.parse(gate.stdout) as { ok: boolean; results: unknown[]; error?: unknown };
    assert.equal(blocked.ok, false);
    assert.ok(blocked.results.length > 0 && blocked.error === undefined, 'a blocked run is a result, not an error');
    const bad = await runSluice(dir, ['reenter', '42', '--json']);
    assert.equal(bad.code, 2);
    assert.equal((JSON.parse(bad.stdout) as { ok: boolean; error: { code: string } }).ok, false);
    const list = JSON.parse((await runSluice(dir, ['schema', '--list', '--json'])).stdout) as { ok: boolean; schemas: { name: string }[] };
    assert.ok(list.ok && list.schemas.some((x) => x.name === 'config'), 'a list is a named field of the envelope');
  });

  it('`sluice errors --json` lists every code with its owner: the kernel keeps its own, each workflow owns its codes', async () => {
    const r = await runSluice(dir, ['errors', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const { codes } = JSON.parse(r.stdout) as { codes: { code: string; owner: string; exitCode: number; hint: string }[] };
    const owner = (code: string) => codes.find((c) => c.code === code)?.owner;
    assert.equal(owner('USAGE'), 'sluice');
    assert.equal(owner('LIFECYCLE_RULE'), 'sluice:lifecycle');
    assert.equal(owner('FROZEN_MODIFIED'), 'sluice:sdlc');
    assert.equal(owner('SKILL_NOT_FOUND'), 'sluice:skill-tune');
    assert.equal(owner('SCRIPT_INVALID'), 'sluice:delegate-script');
    assert.equal(new Set(codes.map((c) => c.code)).size, codes.length, 'each code once');
    assert.ok(
      codes.every((c) => [1, 2, 3].includes(c.exitCode) && c.hint !== ''),
      'every code has an exit code and a hint',
    );
    const one = await runSluice(dir, ['errors', 'lifecycle_rule']);
    assert.match(one.stdout, /LIFECYCLE_RULE\s+exit 1 \(blocked\)/);
  });

  it('an unknown key in sluice.config.yaml is an error that suggests the key meant', async () => {
    await writeFile(join(dir, 'sluice.config.yaml'), 'concurency: 4\n');
    try {
      const r = await runSluice(dir, ['status']);
      assert.equal(r.code, 2);
      assert.match(r.stderr, /CONFIG_INVALID: sluice\.config\.yaml, field concurency: unknown setting "concurency" \(did you mean concurrency\?\)/);
      await writeFile(join(dir, 'sluice.config.yaml'), 'x-acme: { region: eu }\nconcurrency: 3\n');
      const ok = await runSluice(dir, ['status']);
      assert.equal(ok.code, 0, ok.stderr);
    } finally {
      await rm(join(dir, 'sluice.config.yaml'), { force: true });
    }
  });

  it('FORCE_COLOR colours output off a terminal; --no-color and NO_COLOR turn it off', async () => {
    const forced = await runSluice(dir, ['status'], { NO_COLOR: '', FORCE_COLOR: '1' });
    assert.ok(forced.stdout.includes(ESC), `FORCE_COLOR=1 colours a pipe: ${forced.stdout.slice(0, 200)} ${forced.stderr}`);
    const flag = await runSluice(dir, ['--no-color', 'status'], { NO_COLOR: '', FORCE_COLOR: '1' });
    assert.equal(flag.code, 0, flag.stderr);
    assert.ok(!flag.stdout.includes(ESC), '--no-color wins over FORCE_COLOR');
    const off = await runSluice(dir, ['status'], { NO_COLOR: '', FORCE_COLOR: '0' });
    assert.ok(!off.stdout.includes(ESC), 'FORCE_COLOR=0 turns colour off');
  });

  it('colour precedence: --no-color, then FORCE_COLOR (0/false off), then NO_COLOR, then a real terminal', () => {
    const tty = { isTTY: true };
    assert.equal(colorEnabled(tty, {}, []), true);
    assert.equal(colorEnabled(tty, { TERM: 'dumb' }, []), false);
    assert.equal(colorEnabled({ isTTY: false }, {}, []), false);
    assert.equal(colorEnabled(tty, { NO_COLOR: '1' }, []), false);
    assert.equal(colorEnabled(tty, { NO_COLOR: '' }, []), true, 'an empty NO_COLOR is unset (no-color.org)');
    assert.equal(colorEnabled({}, { NO_COLOR: '1', FORCE_COLOR: '2' }, []), true);
    assert.equal(colorEnabled(tty, { FORCE_COLOR: 'false' }, []), false);
    assert.equal(colorEnabled(tty, { FORCE_COLOR: '1' }, ['--no-color']), false);
  });
});
