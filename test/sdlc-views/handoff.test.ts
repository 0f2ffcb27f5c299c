import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import type { HandoffSummary } from '../../plugins/sdlc-views/handoff/summarize-handoff.ts';
import { removeCliBundle, sluice, sluiceJson } from './views-cli.ts';

after(removeCliBundle);
const fixture = resolve('test/fixtures/sdlc-views/session-handoff.json');
const HANDOFF = '.sdlc/artifacts/build/session-handoff.json';

async function project(handoff?: string | ((doc: Record<string, unknown>) => unknown)): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sluice-handoff-'));
  if (handoff === undefined) return dir;
  await mkdir(join(dir, '.sdlc/artifacts/build'), { recursive: true });
  const text = typeof handoff === 'string' ? handoff : JSON.stringify(handoff(JSON.parse(await readFile(fixture, 'utf8')) as Record<string, unknown>));
  await writeFile(join(dir, HANDOFF), text);
  return dir;
}

const SUMMARY = '[SDLC] Session Handoff: 3/8 sections complete, 1 in progress, 0 blocked (session #3)';

describe('sluice handoff', () => {
  it('prints the seed summary line, the context, the first next action and the unresolved blockers', async () => {
    const dir = await project((d) => d);
    const r = await sluice(dir, ['handoff']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.stdout.trimEnd().split('\n'), [
      SUMMARY,
      'Context for this session: SECTION-004 routing layer is 60% done. Start with route registration in gateway.ts.',
      'Start with: Complete API Gateway routing layer (P0, SECTION-004) — Data layer done, need route definitions and middleware',
      'WARNING: 1 unresolved blocker:',
      '  - Waiting for API schema from backend team (SECTION-005)',
    ]);
    await rm(dir, { recursive: true });
  });

  it('--json gives the counts and pointers; resolved blockers are left out', async () => {
    const dir = await project((d) => ({ ...d, sections: [...(d.sections as object[]), { id: 'SECTION-009', name: 'Export', status: 'blocked' }] }));
    const r = await sluiceJson<HandoffSummary>(dir, ['handoff']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.doc.sections, { total: 9, complete: 3, inProgress: 1, blocked: 1 });
    assert.equal(r.doc.line, '[SDLC] Session Handoff: 3/9 sections complete, 1 in progress, 1 blocked (session #3)');
    assert.deepEqual(r.doc.unresolvedBlockers, [{ description: 'Waiting for API schema from backend team', section: 'SECTION-005' }]);
    assert.equal(r.doc.firstAction?.priority, 'P0');
    await rm(dir, { recursive: true });
  });

  it('says when there is no next action and no context', async () => {
    const dir = await project((d) => ({ ...d, next_actions: [], context_for_next_session: '', blockers: [] }));
    const r = await sluice(dir, ['handoff']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.stdout.trimEnd().split('\n'), [SUMMARY, 'Start with: no next action recorded']);
    await rm(dir, { recursive: true });
  });

  it('a file that breaks the schema is a one-line STATE_INVALID naming the file and field, exit 2', async () => {
    const cases: [(d: Record<string, unknown>) => unknown, RegExp][] = [
      [(d) => ({ ...d, session_number: '3' }), /STATE_INVALID: \.sdlc\/artifacts\/build\/session-handoff\.json, field session_number: /],
      [(d) => ({ ...d, $schema: 'session-handoff-v2' }), /field \$schema: must be "session-handoff-v1"/],
      [
        (d) => ({ ...d, sections: [{ id: 'S-1', name: 'x', status: 'done' }] }),
        /field sections\.0\.status: must be one of pending, not_started, in_progress, complete, blocked/,
      ],
      [(d) => ({ ...d, blockers: [{ description: 'x' }] }), /field blockers\.0\.resolved/],
      [(d) => ({ ...d, last_updated: 'yesterday' }), /field last_updated: must be an ISO 8601 timestamp/],
    ];
    for (const [edit, expected] of cases) {
      const dir = await project(edit);
      const r = await sluice(dir, ['handoff']);
      assert.equal(r.code, 2, r.stdout);
      assert.match(r.stderr, expected);
      assert.equal(r.stderr.trim().split('\n').length, 2, r.stderr); // the error line and its hint
      await rm(dir, { recursive: true });
    }
  });

  it('malformed JSON is STATE_CORRUPT naming the file; a missing file is FILE_NOT_FOUND; both exit 2', async () => {
    const broken = await project('{\n  "$schema": "session-handoff-v1",\n  "phase": build\n}');
    const r = await sluice(broken, ['handoff']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /STATE_CORRUPT: \.sdlc\/artifacts\/build\/session-handoff\.json.*Unexpected token/);
    const none = await project();
    const m = await sluice(none, ['handoff']);
    assert.equal(m.code, 2);
    assert.match(m.stderr, /FILE_NOT_FOUND: \.sdlc\/artifacts\/build\/session-handoff\.json/);
    await rm(broken, { recursive: true });
    await rm(none, { recursive: true });
  });

  it('--hook claude prints a SessionStart payload carrying the same text', async () => {
    const dir = await project((d) => d);
    const r = await sluice(dir, ['handoff', '--hook', 'claude']);
    assert.equal(r.code, 0, r.stderr);
    const payload = JSON.parse(r.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    assert.equal(payload.hookSpecificOutput.hookEventName, 'SessionStart');
    assert.ok(payload.hookSpecificOutput.additionalContext.startsWith(`${SUMMARY}\nContext for this session: SECTION-004`));
    assert.match(payload.hookSpecificOutput.additionalContext, /Waiting for API schema/);
    await rm(dir, { recursive: true });
  });

  it('--hook claude never fails a session: no file adds nothing, a broken file becomes a warning', async () => {
    const none = await project();
    const empty = await sluice(none, ['handoff', '--hook', 'claude']);
    assert.equal(empty.code, 0);
    assert.deepEqual(JSON.parse(empty.stdout), {});
    const broken = await project('{\n  "$schema": "session-handoff-v1",\n  "phase": build\n}');
    const warn = await sluice(broken, ['handoff', '--hook', 'claude']);
    assert.equal(warn.code, 0);
    const ctx = (JSON.parse(warn.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    assert.match(ctx, /^\[SDLC\] The session handoff could not be read.*STATE_CORRUPT/);
    const other = await sluice(none, ['handoff', '--hook', 'cursor']);
    assert.equal(other.code, 2);
    await rm(none, { recursive: true });
    await rm(broken, { recursive: true });
  });

  it('--hook claude summarises the valid fields and warns about each one left out; a missing $schema keeps the context', async () => {
    const dir = await project((d) => {
      const { $schema: _schema, ...rest } = d;
      return { ...rest, session_number: -1, sections: [...(d.sections as object[]), { id: 'SECTION-010', name: 'Export', status: 'done' }] };
    });
    const r = await sluice(dir, ['handoff', '--hook', 'claude']);
    assert.equal(r.code, 0, r.stderr);
    const lines = (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext.split('\n');
    assert.equal(
      lines[0],
      '[SDLC] Session Handoff: 3/8 sections complete, 1 in progress, 0 blocked (session #?)',
      'the bad section is left out, the others counted',
    );
    assert.equal(lines[1], 'Context for this session: SECTION-004 routing layer is 60% done. Start with route registration in gateway.ts.');
    const warnings = lines.filter((l) => l.startsWith('[SDLC] WARNING: '));
    assert.equal(warnings.length, 3, warnings.join('\n'));
    assert.match(warnings.join('\n'), /has no "\$schema"/);
    assert.match(warnings.join('\n'), /session_number: must not be negative; ignored/);
    assert.match(warnings.join('\n'), /sections\.8\.status: must be one of .*; entry ignored/);
    await rm(dir, { recursive: true });
  });

  it('--hook claude reads the reference\'s own handoff template, saying its "phase": 4 is wrong instead of failing', async (t) => {
    const template = await readFile(resolve('../shared/reference/claude-code-sdlc/templates/phases/build/session-handoff.json'), 'utf8').catch(() => undefined);
    const text = template ?? JSON.stringify({ ...(JSON.parse(await readFile(fixture, 'utf8')) as object), phase: 4 });
    if (!template) t.diagnostic('../shared/reference is absent: the fixture with "phase": 4 stands in for the reference template');
    const dir = await project(text);
    const r = await sluice(dir, ['handoff', '--hook', 'claude']);
    assert.equal(r.code, 0, r.stderr);
    const ctx = (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    assert.match(ctx, /^\[SDLC\] Session Handoff: \d+\/\d+ sections complete/);
    assert.match(ctx, /WARNING: .*phase is 4, but the handoff belongs to the Build loop, whose id is "build"/);
    await rm(dir, { recursive: true });
  });

  it("--hook claude opens with the project/phase line the reference's session-start hook prints", async () => {
    const dir = await project((d) => d);
    assert.equal((await sluice(dir, ['init', '--name', 'Claims API', '--type', 'service'])).code, 0);
    const r = await sluice(dir, ['handoff', '--hook', 'claude']);
    const lines = (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext.split('\n');
    assert.equal(lines[0], '[SDLC] Project: Claims API | Profile: starter | Phase 0: Discovery | Artifacts: 5');
    assert.equal(lines[1], SUMMARY);
    const hook = resolve('../shared/reference/claude-code-sdlc/hooks/sdlc-session-start.sh');
    const reference = await new Promise<string | undefined>((done) => {
      execFile('bash', [hook], { cwd: dir }, (error, stdout) => done(error ? undefined : stdout));
    });
    if (reference !== undefined) assert.equal(lines[0], reference.split('\n')[0], "the same line as the reference's hook");
    await rm(dir, { recursive: true });
  });

  it('--hook claude summarises a project whose profile has org gates (a `command` gate, a plugin gate type)', async () => {
    const dir = await project((d) => d);
    assert.equal((await sluice(dir, ['init', '--name', 'Claims API'])).code, 0);
    const gates = [
      'sluice:',
      '  gates:',
      '    - {id: lint, type: command, phases: [build], argv: [npm, run, lint], severity: MUST}',
      '    - {id: board, type: acme-review, phases: [2], with: {reviewers: [Kim]}}',
    ];
    await writeFile(join(dir, '.sdlc/profile.yaml'), `${await readFile(join(dir, '.sdlc/profile.yaml'), 'utf8')}\n${gates.join('\n')}\n`);
    const r = await sluice(dir, ['handoff', '--hook', 'claude']);
    assert.equal(r.code, 0, r.stderr);
    const lines = (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext.split('\n');
    assert.equal(lines[0], '[SDLC] Project: Claims API | Profile: starter | Phase 0: Discovery | Artifacts: 5');
    assert.ok(!/GATE_TYPE_UNKNOWN|could not be read/.test(r.stdout), r.stdout);
    await rm(dir, { recursive: true });
  });

  it('--hook claude with a config it cannot read: one warning line, then the summary, exit 0', async () => {
    const dir = await project((d) => d);
    assert.equal((await sluice(dir, ['init', '--name', 'Claims API'])).code, 0);
    await writeFile(join(dir, 'sluice.config.yaml'), 'concurrency: lots\n');
    assert.equal((await sluice(dir, ['status'])).code, 2, 'the other commands refuse the config');
    for (const args of [
      ['handoff', '--hook', 'claude'],
      ['handoff', '--hook', 'claude', '--json'],
    ]) {
      const r = await sluice(dir, args);
      assert.equal(r.code, 0, r.stderr);
      const lines = (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext.split('\n');
      assert.match(lines[0], /^\[SDLC\] WARNING: .*sluice\.config\.yaml, field concurrency: .*; the defaults apply$/);
      assert.equal(lines[1], '[SDLC] Project: Claims API | Profile: starter | Phase 0: Discovery | Artifacts: 5');
      assert.equal(lines[2], SUMMARY);
    }
    await rm(dir, { recursive: true });
  });

  it('--hook claude where sluice cannot start at all (no such folder) still exits 0 with a warning', async () => {
    const r = await sluice(join(tmpdir(), 'sluice-no-such-folder', 'x'), ['handoff', '--hook', 'claude']);
    assert.equal(r.code, 0, r.stderr);
    assert.match((JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext, /^\[SDLC\] WARNING: /);
  });

  it('sluice schema session-handoff-v1 prints the JSON Schema of the file', async () => {
    const dir = await project();
    const r = await sluiceJson<{ schema: { properties: Record<string, { const?: string }>; required: string[] } }>(dir, ['schema', 'session-handoff-v1']);
    assert.equal(r.code, 0);
    assert.equal(r.doc.schema.properties.$schema.const, 'session-handoff-v1');
    assert.ok(r.doc.schema.required.includes('sections'));
    await rm(dir, { recursive: true });
  });
});
