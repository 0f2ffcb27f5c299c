import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { requiredArtifacts } from '../../plugins/sdlc/registry/required-artifacts.ts';
import type { PhaseRegistry } from '../../plugins/sdlc/registry/registry-schema.ts';
import { sluice, sluiceJson } from './views-cli.ts';

const registry = parse(await readFile('plugins/sdlc/assets/phase-registry.yaml', 'utf8')) as PhaseRegistry;

/** Text an attacker might put in an artifact: it must show as text, never run or load anything. */
export const HOSTILE_MARKDOWN = [
  '## Findings',
  '',
  'Plain **bold** text with <script>window.__pwned = 1</script> inline.',
  '',
  '<img src="http://example.invalid/x.png" onerror="window.__pwned = 2">',
  '',
  '![diagram](http://example.invalid/diagram.png)',
  '',
  '[click me](javascript:window.__pwned=3) and [docs](https://example.invalid/docs)',
  '',
  '| metric | value |',
  '| --- | --- |',
  '| latency | 120 ms |',
  '',
].join('\n');

/** Writes every applicable required artifact of a phase (folders get one file). */
export async function writePhaseArtifacts(dir: string, phaseId: string, projectType: 'service' | 'library'): Promise<string[]> {
  const phase = registry.phases.find((p) => String(p.id) === phaseId)!;
  const written: string[] = [];
  for (const a of requiredArtifacts(phase, projectType)) {
    if (!a.applies) continue;
    const file = a.dir ? join(dir, a.rel, '0001-decision.md') : join(dir, a.rel);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, `# ${a.name} for phase ${phaseId}\n\nWritten by the walkthrough.\n\n${HOSTILE_MARKDOWN}`);
    written.push(a.rel);
  }
  return written;
}

interface NextJson {
  status: string;
  manual?: { id?: string; gate: string }[];
}

/** `sluice next`, approving whatever manual results the dry run names, signed by `who`. */
export async function approveAndAdvance(dir: string, who: string, env: Record<string, string> = {}): Promise<void> {
  const dry = await sluiceJson<NextJson>(dir, ['next'], env);
  const ids = (dry.doc.manual ?? []).map((r) => r.id ?? r.gate);
  const args = ['next', '--confirmed', '--signed-by', who];
  for (const id of ids) args.push('--approve', id);
  const r = await sluice(dir, args, env);
  assert.equal(r.code, 0, `next failed (${dry.doc.status}):\n${r.stdout}\n${r.stderr}`);
}

export interface WalkedProject {
  dir: string;
}

/**
 * Walks a `library` project through the real CLI: advance 0 → 1 with approvals, skip 1, a failing
 * gate run and a blocked next in 2, advance 2 → 3, re-enter 1, advance 1 → 2 → 3 → build → 7 → 8,
 * with specs in the repo for the Build loop's INFO rows and the repo's own README for phase 7.
 * Phase 8 is left with a recorded failing gate run.
 */
export async function walkProject(): Promise<WalkedProject> {
  const dir = await mkdtemp(join(tmpdir(), 'sluice-walk-'));
  const init = await sluice(dir, ['init', '--profile', 'starter', '--name', 'Walk <Project> & "Co"', '--type', 'library']);
  assert.equal(init.code, 0, init.stderr);
  await writePhaseArtifacts(dir, '0', 'library');
  assert.equal((await sluice(dir, ['next'])).code, 1, 'manual gates must stop an unapproved next');
  await approveAndAdvance(dir, 'alice');
  const skip = await sluice(dir, ['skip', '--justification', 'Requirements came with the RFP <b>signed</b>', '--confirmed', '--signed-by', 'bob']);
  assert.equal(skip.code, 0, skip.stderr);
  assert.equal((await sluice(dir, ['gate'])).code, 1, 'missing design artifacts fail their MUST gates');
  assert.equal((await sluice(dir, ['next'])).code, 1, 'and block the advance');
  await writePhaseArtifacts(dir, '2', 'library');
  await approveAndAdvance(dir, 'carol');
  const back = await sluice(dir, ['reenter', '1', '--justification', 'NFRs missing: "p99 latency"', '--signed-by', 'dave']);
  assert.equal(back.code, 0, back.stderr);
  await writePhaseArtifacts(dir, '1', 'library');
  await approveAndAdvance(dir, 'alice');
  await approveAndAdvance(dir, 'carol');
  await writePhaseArtifacts(dir, '3', 'library');
  await approveAndAdvance(dir, 'erin');
  await mkdir(join(dir, 'specs'));
  await writeFile(join(dir, 'specs/0001-auth.md'), '---\nspec: "0001"\nname: "C# SDK"\nstatus: in-flight\nrisk: HIGH\n---\n');
  await writeFile(join(dir, 'specs/0002-search.md'), '---\nspec: "0002"\nname: Search\nstatus: merged\nrisk: LOW\n---\n');
  await writePhaseArtifacts(dir, 'build', 'library');
  // G3-metrics reads real coverage in the Build loop: 80% of lines, above the starter profile's 60%.
  await mkdir(join(dir, 'coverage'));
  await writeFile(join(dir, 'coverage/lcov.info'), 'TN:\nSF:src/index.ts\nLF:10\nLH:8\nend_of_record\n');
  assert.equal((await sluice(dir, ['gate'])).code, 0);
  await approveAndAdvance(dir, 'erin');
  await writePhaseArtifacts(dir, '7', 'library');
  await approveAndAdvance(dir, 'frank');
  assert.equal((await sluice(dir, ['gate'])).code, 1, 'phase 8 has no artifacts yet: its recorded run fails');
  return { dir };
}
