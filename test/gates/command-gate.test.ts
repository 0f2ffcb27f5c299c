import assert from 'node:assert/strict';
import { access, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { defineGate, definePlugin, type GateResult, type PluginDefinition } from '../../core/index.ts';
import { data, sdlcKernel, sluice, tempDir, writeCurrentArtifacts } from '../sdlc/sdlc-fixture.ts';

const node = JSON.stringify(process.execPath);

/** A starter project whose frozen profile adds gates (as an org pack would). */
async function projectWithGates(gates: string, plugins: PluginDefinition[] = []) {
  const dir = await tempDir();
  const kernel = await sdlcKernel(dir, { plugins });
  await sluice(kernel, 'init');
  const profile = join(dir, '.sdlc/profile.yaml');
  await writeFile(profile, `${await readFile(profile, 'utf8')}\nsluice:\n  gates:\n${gates}`);
  await writeCurrentArtifacts(kernel);
  return { dir, kernel };
}

describe('gates a profile pack adds', () => {
  it('command gates run without a shell, pass on exit 0 and report the exit code and last output line', async () => {
    const { dir, kernel } = await projectWithGates(`    - {id: lint, type: command, phases: [0], argv: [${node}, -e, "console.error('3 problems'); process.exit(3)"]}
    - {id: echo-args, type: command, phases: [0], argv: [${node}, -e, "console.log(process.argv[1])", "$(touch pwned) && echo"]}
    - {id: style, type: command, phases: [0], severity: SHOULD, argv: [${node}, -e, "process.exit(1)"]}
    - {id: missing-tool, type: command, phases: [0], severity: MAY, argv: [definitely-not-a-program-sluice]}
    - {id: later, type: command, phases: [build], argv: [${node}, -e, "process.exit(9)"]}
`);
    const out = await sluice(kernel, 'gate');
    const rows = Object.fromEntries(data<{ results: GateResult[] }>(out).results.map((r) => [r.gate, r]));
    assert.deepEqual([rows.lint.passed, rows.lint.severity], [false, 'MUST']);
    assert.match(rows.lint.message, /^exit 3: 3 problems$/);
    assert.equal(rows['echo-args'].passed, true);
    assert.match(rows['echo-args'].message, /exit 0: \$\(touch pwned\) && echo/);
    assert.equal(await access(join(dir, 'pwned')).then(() => true, () => false), false, 'no shell ran the $(...)');
    assert.equal(rows.style.passed, false);
    assert.match(rows['missing-tool'].message, /cannot start definitely-not-a-program-sluice/);
    assert.equal(rows.later, undefined, 'only gates listing the phase run');
    assert.equal(out.exitCode, 1, 'the MUST command gate blocks');
    assert.deepEqual(data<{ blockers: string[] }>(out).blockers, ['lint']);
  });

  it('a gate type registered by a plugin runs with its input; its manual rows get approvable ids', async () => {
    const review = defineGate<{ id: string; reviewers: string[] }>({
      type: 'acme-review',
      id: 'ACME-review',
      description: 'architecture board review',
      async check(input) {
        return [{ gate: 'ACME-review', check: `Board review by ${input.reviewers.join(' and ')}`, passed: null, message: 'the board signs', severity: 'MUST' }];
      },
    });
    const plugin = definePlugin({ name: 'acme-gates', setup: (ctx) => ctx.registerGate(review) });
    const { kernel } = await projectWithGates('    - {id: board, type: acme-review, phases: ["0"], with: {reviewers: [Kim, Lee]}}\n', [plugin]);
    const first = await sluice(kernel, 'next');
    const manual = data<{ manual: { id: string; check: string }[] }>(first).manual.find((m) => m.check.startsWith('Board review'));
    assert.equal(manual?.id, 'ACME-review:board-review-by-kim-and-lee');
    const unapproved = data<{ unapproved: string[] }>(first).unapproved;
    const advanced = await sluice(kernel, 'next', { approve: unapproved, signedBy: 'Kim', confirmed: true });
    assert.equal(advanced.exitCode, 0, advanced.human ?? "");
  });
});
