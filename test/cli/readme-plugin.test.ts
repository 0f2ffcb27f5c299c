import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { transformSync } from 'esbuild';
import { runCli } from '../helpers/run-cli.ts';
import { installApiCopy } from '../helpers/install-api-copy.ts';
import { trustedEnv } from '../helpers/trusted-env.ts';

/** The README's plugin example, as printed, must work: a user copies it first. */
describe('README plugin example', () => {
  it('registers a gate a profile pack runs, with the documented input', async () => {
    const readme = await readFile('README.md', 'utf8');
    const section = readme.slice(readme.indexOf('## Writing a plugin'));
    const source = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    assert.ok(source, 'README has a TypeScript example under "Writing a plugin"');
    // Its types taken out, as the README says: the plain .mjs plugin (the package test type-checks the .ts).
    const code = transformSync(source, { loader: 'ts', format: 'esm' }).code;
    const wiring = /`gates: \[(\{[^`]*\})\]`/.exec(section)?.[1];
    assert.ok(wiring, 'README shows the profile wiring');

    const dir = await mkdtemp(join(tmpdir(), 'sluice-readme-'));
    await installApiCopy(dir);
    await mkdir(join(dir, 'sluice'));
    await writeFile(join(dir, 'sluice', 'acme-gates.mjs'), code);
    await writeFile(join(dir, 'sluice.config.yaml'), 'plugins: [./sluice/acme-gates.mjs]\n');
    // A pack: the starter profile plus the README's `sluice.gates` line.
    const starter = await readFile('plugins/sdlc/packs/starter/profile.yaml', 'utf8');
    await mkdir(join(dir, 'packs', 'acme'), { recursive: true });
    await writeFile(join(dir, 'packs', 'acme', 'profile.yaml'), `${starter}\nsluice:\n  gates: [${wiring}]\n`);

    // The README's `sluice trust` step, as a CI host does it: the hash of the reviewed plugin.
    const env = await trustedEnv(dir);
    const init = await runCli(['init', '--profile', './packs/acme', '--type', 'library', '--cwd', dir], { env });
    assert.equal(init.code, 0, init.stderr);
    const rowOf = (stdout: string) => {
      const doc = JSON.parse(stdout) as { results: { gate: string; passed: boolean | null; message: string }[] };
      return doc.results.find((r) => r.gate === 'ACME-licence');
    };
    const missing = await runCli(['gate', '--phase', '7', '--json', '--cwd', dir], { env });
    assert.equal(rowOf(missing.stdout)?.passed, false, missing.stdout.slice(0, 500));
    assert.equal(missing.code, 1, 'a failing MUST gate blocks');
    await writeFile(join(dir, 'LICENSES.md'), '# Licences\n');
    const present = await runCli(['gate', '--phase', '7', '--json', '--cwd', dir], { env });
    assert.equal(rowOf(present.stdout)?.passed, true);
  });
});
