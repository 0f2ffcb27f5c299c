import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cliBundle } from '../hardening/cli-bundle.ts';
import { deliberateDifferences, differences, explained, referenceKey, sluiceKey, type DeliberateDifference, type SluiceRow } from './compare-verdicts.ts';
import { clearPhase, STAGES, writeFrozenLayer, writeStage } from './fill-artifacts.ts';
import {
  python,
  referenceCompliance,
  referenceMissing,
  referencePhases,
  referenceHandoff,
  referenceProfiles,
  referenceRoot,
  sluiceCli,
  startReferenceDriver,
  type ReferenceDriver,
} from './reference-plugin.ts';

/**
 * sluice and the reference plugin's own scripts on the same projects: created by the reference's
 * init_project.py for each of its profiles, walked through every phase with the artifacts at three
 * stages (blank templates, half filled with a waiver, filled), each stage checked by both tools,
 * and a frozen layer with locked metrics written as each phase is left.
 * Every gate row must get the same verdict, or the README's table of deliberate differences must
 * say why sluice differs; a table row whose gate rows were compared but never differed that way is
 * stale. The profiles are split over two test files (`shard-N.test.ts`) that tap runs side by side.
 */
const missing = referenceMissing();
const skip = missing ? `${missing}: the differential suite needs the reference plugin` : false;

// Project types rotate across profiles, so required_for artifacts are exercised both ways.
const PROJECT_TYPES = [null, 'service', 'library', 'app', 'cli'] as const;
export const SHARDS = 2;
const tableKey = (t: DeliberateDifference) => `${t.rows.source} ${t.reference.join('/')} ${t.sluice.join('/')}`;

async function setProjectType(dir: string, type: string | null): Promise<void> {
  if (type === null) return;
  const path = join(dir, '.sdlc', 'state.yaml');
  const text = await readFile(path, 'utf8');
  await writeFile(path, text.replace(/^project_type:.*$/m, `project_type: "${type}"`));
}

/** The walks of every profile whose index is `shard` modulo SHARDS, then the staleness check of the table. */
export function describeShard(shard: number): void {
  if (missing) process.stdout.write(`# SKIP sdlc differential suite: ${missing}\n`);
  const used = new Set<string>();
  const compared = new Set<string>();
  const dirs: string[] = [];
  after(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  describe(`sluice and the reference plugin agree gate row by gate row (profiles ${shard + 1}, ${shard + 1 + SHARDS}, … of the reference)`, {
    skip,
    concurrency: 2,
  }, () => {
    const profiles = missing ? [] : referenceProfiles();
    let driver: ReferenceDriver;
    before(() => {
      driver = startReferenceDriver();
    });
    after(() => driver?.close());

    for (const [index, profile] of profiles.entries()) {
      if (index % SHARDS !== shard) continue;
      const projectType = PROJECT_TYPES[index % PROJECT_TYPES.length];
      it(`${profile} (project type ${projectType ?? 'unset'}): every phase, blank → partial → filled`, { timeout: 840_000 }, async () => {
        cliBundle();
        const table = await deliberateDifferences();
        const phases = await referencePhases();
        const compliance = await referenceCompliance(profile);
        const dir = await mkdtemp(join(tmpdir(), `sluice-differential-${profile}-`));
        dirs.push(dir);
        const init = await python(
          'init_project.py',
          ['--profile', join(referenceRoot, 'profiles', profile, 'profile.yaml'), '--target', dir, '--name', `diff-${profile}`],
          dir,
        );
        assert.equal(init.code, 0, init.stdout + init.stderr);
        await setProjectType(dir, projectType);

        const unexplained: string[] = [];
        for (const [i, phase] of phases.entries()) {
          for (const stage of STAGES) {
            await clearPhase(dir, phase);
            const wrote = await writeStage(dir, phase, stage, projectType, compliance);
            const mine = await sluiceCli(dir, ['gate', '--json']);
            assert.ok(mine.code === 0 || mine.code === 1, `sluice gate at ${phase.id}/${stage}: exit ${mine.code} ${mine.stderr}`);
            let ours: { phase: { id: string }; results: SluiceRow[] };
            try {
              ours = JSON.parse(mine.stdout) as typeof ours;
            } catch {
              throw new Error(`sluice gate --json at ${phase.id}/${stage} printed no JSON (exit ${mine.code}):\n${mine.stdout}\n${mine.stderr}`);
            }
            const theirs = await driver.rows(dir);
            assert.equal(ours.phase.id, phase.id);
            assert.equal(theirs.phase, phase.id);
            for (const r of theirs.rows) compared.add(referenceKey(r));
            for (const r of ours.results) compared.add(sluiceKey(r));
            const diffs = differences(theirs.rows, ours.results);
            for (const d of diffs) {
              const why = explained(d, table);
              if (why) used.add(tableKey(why));
              else unexplained.push(`phase ${phase.id} ${stage}: ${d.key} reference ${d.reference}, sluice ${d.sluice} [wrote ${wrote.join(', ')}]`);
            }
            // The overall verdict follows from the rows: it may differ only through an explained row.
            const refBlocked = theirs.rows.some((r) => r.passed === false && r.severity === 'MUST');
            const blockingDiff = diffs.some((d) => d.reference === 'fail' || d.sluice === 'fail');
            if (!blockingDiff)
              assert.equal(
                mine.code === 1,
                refBlocked,
                `phase ${phase.id} ${stage}: sluice ${mine.code === 1 ? 'blocks' : 'passes'}, the reference ${refBlocked ? 'blocks' : 'passes'}`,
              );
          }
          // The reference's Close step reads the phase sluice just gated: its handoff report must draft.
          const handoff = await referenceHandoff(dir);
          assert.equal(
            handoff.code,
            0,
            `generate_handoff_report.py after sluice gate at ${phase.id}: ${handoff.stderr.trim().split('\n').slice(-2).join(' | ')}`,
          );
          assert.deepEqual(
            handoff.record.filter((r) => r.gate === 'passed' && r.signedOffBy !== 'Grace Hopper'),
            [],
            'every phase the reference advanced names its signer in the engagement record',
          );
          if (i === phases.length - 1) break;
          const advanced = await driver.advance(dir, 'Grace Hopper');
          assert.equal(
            advanced.code,
            0,
            `the reference advances from ${phase.id} on filled artifacts:\n${advanced.printed
              .split('\n')
              .filter((l) => /NON-COMPLIANT|BLOCKED|Error/.test(l))
              .join('\n')}`,
          );
          // Later phases then have a frozen layer with locked metrics for G5 to weigh.
          await writeFrozenLayer(dir, phase);
        }
        assert.deepEqual(unexplained, [], 'differences the README table does not explain');
      });
    }
  });

  // After the walks (the describe above runs two at a time).
  describe('the table of deliberate differences', { skip }, () => {
    it('every row cites its source; a row whose gate rows were compared here but never differed that way is stale', async () => {
      const table = await deliberateDifferences();
      assert.ok(table.length > 0, 'plugins/sdlc/README.md has the table of deliberate differences');
      for (const row of table)
        assert.match(row.backedBy, /seed|registry|reference/i, `${row.rows.source} cites the seed, registry or reference line behind it`);
      const observable = table.filter((row) => [...compared].some((k) => row.rows.test(k)));
      const stale = observable
        .filter((row) => !used.has(tableKey(row)))
        .map((row) => `${row.rows.source} (${row.reference.join('/')} → ${row.sluice.join('/')})`);
      assert.deepEqual(stale, [], 'table rows no walk needed: remove them or fix the walk');
    });
  });
}
