import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BWRAP_PROBE_ARGS } from '../../core/index.ts';
import { runCli } from '../helpers/run-cli.ts';
import { trustedEnv } from '../helpers/trusted-env.ts';
import { gitIn, makeRepo, writeFiles } from './lifecycle-fixture.ts';

/**
 * Each `lifecycle run` stage's AI CLI runs in the OS sandbox, and the run's record says in what:
 * `sandbox` on every stage of `--json` (`off` when the person chose so). The CLI here (a node script
 * on the shell backend) writes a record and answers without evidence, so the stage is retried and blocks.
 */
const skip = spawnSync('bwrap', BWRAP_PROBE_ARGS, { stdio: 'ignore' }).status === 0 ? false : 'bubblewrap (bwrap) cannot start a sandbox here';

const AGENT = `
const fs = require('node:fs');
let state = 'written';
try { fs.appendFileSync('.prizmkit/state/journal/feat.jsonl', '{"forged":true}\\n'); } catch (e) { state = e.code; }
process.stdout.write('did nothing useful; record: ' + state + '\\n');
`;

interface Stage {
  stage: string;
  sandbox?: string;
}

async function project() {
  const root = await makeRepo({ 'agent.cjs': AGENT });
  await writeFiles(root, { 'sluice.config.yaml': JSON.stringify({ delegates: { shell: { command: process.execPath, args: ['agent.cjs'] } } }) });
  gitIn(root, 'add', '-A');
  gitIn(root, 'commit', '-q', '-m', 'agent');
  const env = await trustedEnv(root);
  assert.equal((await runCli(['--cwd', root, 'lifecycle', 'start', 'feat'], { env })).code, 0);
  return { root, env };
}

const stagesOf = (stdout: string): Stage[] => (JSON.parse(stdout) as { requirements: { stages: Stage[] }[] }).requirements[0]!.stages;

describe('lifecycle run stages in the OS sandbox', { skip }, () => {
  it('every stage ran in bubblewrap and could not write the lifecycle journal; --sandbox off is recorded on each stage', async () => {
    const { root, env } = await project();
    const sandboxed = await runCli(['--cwd', root, 'lifecycle', 'run', 'feat', '--to', 'shell', '--json'], { env });
    const stages = stagesOf(sandboxed.stdout);
    assert.ok(stages.length > 0, sandboxed.stdout);
    assert.deepEqual([...new Set(stages.map((s) => s.sandbox))], ['bubblewrap']);
    const journal = join(root, '.prizmkit', 'state', 'journal', 'feat.jsonl');
    assert.doesNotMatch(existsSync(journal) ? readFileSync(journal, 'utf8') : '', /forged/);

    const { root: other, env: otherEnv } = await project();
    const off = await runCli(['--cwd', other, 'lifecycle', 'run', 'feat', '--to', 'shell', '--sandbox', 'off', '--json'], { env: otherEnv });
    assert.deepEqual([...new Set(stagesOf(off.stdout).map((s) => s.sandbox))], ['off']);
  });
});
