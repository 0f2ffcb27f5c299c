import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { GateAudit } from '../../plugins/sdlc-views/model/gate-audit.ts';
import { projectsRemovedAfterTests, sluice, sluiceJson } from './views-cli.ts';
import { approveAndAdvance, writePhaseArtifacts } from './walk-project.ts';

const project = projectsRemovedAfterTests();

describe('audit shows every waiver apart from passes', () => {
  it('names who, why, file and phase in text and JSON, from the advance and from the latest run', async () => {
    const dir = await project('sluice-audit-waivers-', ['--profile', 'starter', '--type', 'service']);
    await writePhaseArtifacts(dir, '0', 'service');
    await writeFile(
      join(dir, '.sdlc/artifacts/00-discovery/constraints.md'),
      '# Constraints\n\n**WAIVED:** Dana Whitfield, budget is set by the client board in week 3\n\nBudget: TBD\n',
    );
    await approveAndAdvance(dir, 'alice');
    await writePhaseArtifacts(dir, '1', 'service');
    await writeFile(
      join(dir, '.sdlc/artifacts/01-requirements/epics.md'),
      '# Epics\n\n- WAIVED: Omar Haddad — epics come from the client backlog import\n\n<!-- REQUIRED: epics -->\n',
    );
    assert.equal((await sluice(dir, ['gate'])).code, 0);

    const { code, doc } = await sluiceJson<GateAudit>(dir, ['audit']);
    assert.equal(code, 0);
    assert.deepEqual(
      doc.waivers.map((w) => [w.phase, w.file, w.line, w.who, w.why, w.at === null]),
      [
        ['0', 'constraints.md', 3, 'Dana Whitfield', 'budget is set by the client board in week 3', false],
        ['1', 'epics.md', 3, 'Omar Haddad', 'epics come from the client backlog import', true],
      ],
    );
    const g2 = doc.gates.find((g) => g.gate === 'G2-completeness')!;
    assert.equal(g2.waived, 2, 'waived rows are counted apart');
    assert.equal(g2.passed + g2.waived + g2.failed + g2.manual, g2.results);
    assert.ok(!doc.alwaysPassing.some((g) => g.gate === 'G2-completeness'));

    const text = (await sluice(dir, ['audit'])).stdout;
    assert.match(text, /Waivers \(2\)/);
    assert.match(text, /phase 0, constraints\.md:3: waived by Dana Whitfield; "budget is set by the client board in week 3"/);
    assert.match(text, /phase 1, epics\.md:3: waived by Omar Haddad; "epics come from the client backlog import"/);
  });
});
