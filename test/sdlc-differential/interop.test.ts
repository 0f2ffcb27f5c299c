import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cliBundle } from '../hardening/cli-bundle.ts';
import { extendRunnerTimeout } from '../helpers/runner-timeout.ts';
import { clearPhase, writeStage } from './fill-artifacts.ts';
import { python, referenceCompliance, referenceMissing, referencePhases, referenceRoot, sluiceCli, type ScriptRun } from './reference-plugin.ts';

/**
 * A team switching over runs both tools on one project for a while: after any sluice command, the
 * reference's generate_status.py, check_gates.py and advance_phase.py (dry run) must still run on
 * it (exit 0 or 1, never a crash on what sluice wrote).
 */
extendRunnerTimeout(600_000);
const missing = referenceMissing();
const skip = missing ? `${missing}: the interop check needs the reference plugin` : false;
const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const crashed = (r: ScriptRun) => r.code > 1 || /Traceback \(most recent call last\)/.test(r.stdout + r.stderr);

describe('the reference scripts still run after sluice commands', { skip }, () => {
  it('init by the reference, then gate, status, audit, report, specs, next, skip and reenter by sluice', { timeout: 300_000 }, async (t) => {
    cliBundle();
    const dir = await mkdtemp(join(tmpdir(), 'sluice-interop-'));
    dirs.push(dir);
    const state = join(dir, '.sdlc', 'state.yaml');
    assert.equal((await python('init_project.py', ['--profile', join(referenceRoot, 'profiles', 'starter', 'profile.yaml'), '--target', dir, '--name', 'interop'], dir)).code, 0);
    const phases = await referencePhases();
    const compliance = await referenceCompliance('starter');
    const broken: string[] = [];

    const referenceStillRuns = async (after: string) => {
      for (const [script, args] of [
        ['generate_status.py', ['--state', state]],
        ['check_gates.py', ['--state', state]],
        ['advance_phase.py', ['--state', state]],
      ] as const) {
        const r = await python(script, [...args], dir);
        if (crashed(r)) broken.push(`${script} after sluice ${after}: exit ${r.code} ${(r.stderr || r.stdout).trim().split('\n').pop()}`);
      }
    };
    const run = async (args: string[], expect: number[] = [0, 1]) => {
      const r = await sluiceCli(dir, args);
      assert.ok(expect.includes(r.code), `sluice ${args.join(' ')}: exit ${r.code}\n${r.stderr}`);
      await referenceStillRuns(args.join(' '));
      return r;
    };
    const advance = async (signer: string) => {
      const dry = JSON.parse((await sluiceCli(dir, ['next', '--json'])).stdout) as { unapproved?: string[] };
      await run(['next', ...(dry.unapproved ?? []).flatMap((id) => ['--approve', id]), '--signed-by', signer, '--confirmed'], [0]);
    };

    await run(['gate']);
    await run(['status']);
    await run(['specs']);
    for (const phase of phases.slice(0, 2)) {
      await clearPhase(dir, phase);
      await writeStage(dir, phase, 'filled', null, compliance);
      await run(['next']);
      await advance('Grace Hopper');
    }
    await run(['skip', '--justification', 'design agreed with the client architect', '--confirmed', '--signed-by', 'Grace Hopper'], [0]);
    await run(['reenter', '1', '--justification', 'requirements missed the audit trail']);
    await run(['audit']);
    await run(['report', '--out', join(dir, 'report.html')]);

    // Quoted timestamps are issue 12 item 3 (helper h5); until they land, PyYAML reads datetimes and
    // generate_status.py crashes. Shown as a TODO with the first crash, never silently passed.
    if (broken.length > 0 && broken.every((b) => /datetime/.test(b))) return t.todo(`issue 12 item 3: ${broken.length} crashes, e.g. ${broken[0]}`);
    assert.deepEqual(broken, []);
  });
});
