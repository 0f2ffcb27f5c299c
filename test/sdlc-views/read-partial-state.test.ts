import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { projectsRemovedAfterTests, sluice, sluiceJson } from './views-cli.ts';

const project = projectsRemovedAfterTests();

describe('a state another tool wrote without history, version or created_at', () => {
  it('is read by status, audit and report with defaults; a writing command refuses it and leaves it untouched', async () => {
    const dir = await project('sluice-partial-state-', ['--profile', 'starter']);
    const path = join(dir, '.sdlc/state.yaml');
    const full = await readFile(path, 'utf8');
    const partial = full
      .split('\n')
      .filter((l) => !/^(version|created_at):/.test(l))
      .join('\n')
      .replace(/^history:.*$/m, '');
    assert.doesNotMatch(partial, /^(history|version|created_at):/m);
    await writeFile(path, partial);

    const status = await sluiceJson<{ createdAt: string; currentPhase: { id: string } }>(dir, ['status']);
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.doc.createdAt, /^\d{4}-\d{2}-\d{2}T/, 'created_at defaults to the earliest recorded time');
    const audit = await sluiceJson<{ transitions: { advances: number } }>(dir, ['audit']);
    assert.equal(audit.code, 0, audit.stderr);
    assert.equal(audit.doc.transitions.advances, 0);
    const report = await sluice(dir, ['report', '--out', join(dir, 'r.html')]);
    assert.equal(report.code, 0, report.stderr);

    const gate = await sluice(dir, ['gate']);
    assert.equal(gate.code, 2);
    assert.match(gate.stderr, /STATE_INVALID: \.sdlc\/state\.yaml.*(history|version|created_at)/);
    assert.equal(await readFile(path, 'utf8'), partial, 'the refused write changed nothing');
  });
});
