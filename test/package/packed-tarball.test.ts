import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, posix, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { ACME_GATE_TS, writeAcmePack } from '../helpers/acme-pack.ts';
import { KERNEL_SCRIPT, KERNEL_SIDE, ROOT_ONLY, TS_DELEGATE, TS_GATE, TS_HOOK } from './consumer-sources.ts';

/**
 * The package as a third party gets it: packed, installed from the file into a fresh project,
 * type-checked strictly against its declarations with TypeScript 5 (what consumers run), and its
 * plugins — a .ts gate, a .ts delegate, an SDLC hook handler and the README's example — run by `sluice`.
 */
const run = promisify(execFile);
const repo = resolve(import.meta.dirname, '../..');
const tsc5 = join(repo, 'node_modules/typescript5/bin/tsc');
const built = existsSync(join(repo, 'dist/sluice.mjs')) && existsSync(join(repo, 'dist/types/api/index.d.ts'));

interface PackFile {
  path: string;
}
interface PackInfo {
  filename: string;
  size: number;
  files: PackFile[];
}

describe('the packed package', { skip: built ? false : 'dist/ is not built: run `node scripts/build.mjs` first' }, () => {
  let dir: string;
  let pack: PackInfo;
  let trusted: Record<string, string> = {};
  let home: string;
  const sluice = (args: string[], env: Record<string, string> = {}) =>
    run(process.execPath, [join(dir, 'node_modules/sluice/bin/sluice.cjs'), ...args], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1', HOME: home, XDG_CONFIG_HOME: join(home, 'config'), SLUICE_TRUSTED_HASH: '', ...trusted, ...env },
    }).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sluice-consumer-'));
    home = await mkdtemp(join(tmpdir(), 'sluice-consumer-home-'));
    // --ignore-scripts: the suite already built dist/; prepack would rebuild it under running tests.
    const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: repo });
    [pack] = JSON.parse(stdout) as PackInfo[];
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', `./${pack.filename}`, 'tsx', 'valibot', '@types/node'], { cwd: dir });
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });

  it('ships no tests, fixtures, bench, CI files or source maps, and stays under 1 MB packed', () => {
    const paths = pack.files.map((f) => f.path);
    const unwanted = paths.filter((p) => /^(test|scripts|\.ci|\.github)\/|\.map$|^tsconfig|\.test\.ts$|fixtures\//.test(p));
    assert.deepEqual(unwanted, []);
    assert.ok(pack.size <= 1024 * 1024, `packed size ${pack.size} bytes`);
    for (const needed of [
      'bin/sluice.cjs',
      'dist/sluice.mjs',
      'dist/types/api/index.d.ts',
      'plugins/sdlc/assets/phase-registry.yaml',
      'skills/lifecycle/plan.md',
    ]) {
      assert.ok(paths.includes(needed), `${needed} is in the tarball`);
    }
  });

  it('every relative link in the shipped markdown leads to a file the tarball ships', async () => {
    const paths = pack.files.map((f) => f.path);
    const shipped = new Set(paths);
    const broken: string[] = [];
    for (const doc of paths.filter((p) => p.endsWith('.md'))) {
      const text = await readFile(join(repo, doc), 'utf8');
      // Markdown links and images: [text](target) and ![alt](target), code spans and blocks left out.
      const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
      for (const [, target] of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        if (/^(?:[a-z][a-z0-9+.-]*:|#)/i.test(target)) continue;
        const path = posix.normalize(posix.join(posix.dirname(doc), target.replace(/[#?].*$/, '')));
        if (!shipped.has(path) && !paths.some((p) => p.startsWith(`${path.replace(/\/$/, '')}/`))) broken.push(`${doc}: ${target}`);
      }
    }
    assert.deepEqual(broken, []);
  });

  it('ships the Claude Code plugin folder, launcher included', () => {
    const paths = pack.files.map((f) => f.path);
    for (const needed of [
      'plugins/claude-code/.claude-plugin/plugin.json',
      'plugins/claude-code/hooks/hooks.json',
      'plugins/claude-code/bin/sluice',
      'plugins/claude-code/commands/sdlc-gate.md',
    ]) {
      assert.ok(paths.includes(needed), `${needed} is in the tarball`);
    }
  });

  it('type-checks a TS gate, a TS delegate, an SDLC hook handler and the README example (strict, nodenext)', async () => {
    const readme = await readFile(join(repo, 'README.md'), 'utf8');
    const example = /```ts\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf('## Writing a plugin')))?.[1];
    assert.ok(example, 'README has a TypeScript example under "Writing a plugin"');
    await mkdir(join(dir, 'sluice'));
    // As a user copies it: a .ts file, checked under strict with TypeScript 5.
    await writeFile(join(dir, 'sluice/acme-gates.ts'), example);
    await writeFile(join(dir, 'sluice/ts-gates.ts'), TS_GATE);
    await writeFile(join(dir, 'sluice/upper-delegate.ts'), TS_DELEGATE);
    await writeFile(join(dir, 'sluice/ts-hooks.ts'), TS_HOOK);
    await writeFile(join(dir, 'sluice/root-only.ts'), ROOT_ONLY);
    await writeFile(join(dir, 'sluice/embed.ts'), KERNEL_SCRIPT);
    // An org pack's gate plugin, as its author writes it: TypeScript importing only from `sluice`.
    await writeAcmePack(join(dir, 'sluice/acme-pack'), repo);
    const tsconfig = {
      compilerOptions: {
        strict: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        noEmit: true,
        allowJs: true,
        checkJs: true,
        skipLibCheck: false,
        types: ['node'],
      },
      include: ['sluice'],
    };
    await writeFile(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
    const check = await run(process.execPath, [tsc5, '-p', dir], { cwd: dir }).then(
      () => '',
      (e: { stdout: string }) => e.stdout,
    );
    assert.equal(check, '', 'no type errors');
    // The checker really reads the declarations: a wrong hook payload is an error.
    await writeFile(
      join(dir, 'sluice/wrong.ts'),
      `import { definePlugin } from 'sluice';\nexport default definePlugin({ name: 'w', setup(ctx) { ctx.hook('phase:beforeAdvance', (e) => e.nope); } });\n`,
    );
    const wrong = await run(process.execPath, [tsc5, '-p', dir], { cwd: dir }).then(
      () => '',
      (e: { stdout: string }) => e.stdout,
    );
    await rm(join(dir, 'sluice/wrong.ts'));
    assert.match(wrong, /wrong\.ts.*Property 'nope' does not exist/);
  });

  it('runs the TypeScript plugins through the installed `sluice` on Node 20', async () => {
    await writeFile(
      join(dir, 'sluice.config.yaml'),
      'plugins: [./sluice/ts-gates.ts, ./sluice/upper-delegate.ts, ./sluice/ts-hooks.ts, ./sluice/acme-gates.ts]\n',
    );
    const untrusted = await sluice(['plugins']);
    assert.equal(untrusted.code, 2, 'project plugins do not run before a person trusts them');
    assert.match(untrusted.stderr, /WORKSPACE_UNTRUSTED/);
    // Trusted as a CI host does after review: the hash `sluice trust --show` prints.
    const shown = await sluice(['trust', '--show', '--json']);
    trusted = { SLUICE_TRUSTED_HASH: (JSON.parse(shown.stdout) as { hash: string }).hash };
    const plugins = await sluice(['plugins', '--json']);
    assert.equal(plugins.code, 0, plugins.stderr);
    const names = (JSON.parse(plugins.stdout) as { plugins: { name: string }[] }).plugins.map((p) => p.name);
    for (const name of ['ts-gates', 'sluice:delegate-upper', 'ts-hooks', 'acme-gates']) assert.ok(names.includes(name), `${name} loaded`);

    const answer = await sluice(['delegate', '--to', 'upper', '--json', 'shout this']);
    assert.equal(answer.code, 0, answer.stderr);
    assert.equal((JSON.parse(answer.stdout) as { text: string }).text, 'SHOUT THIS');

    const starter = await readFile(join(repo, 'plugins/sdlc/packs/starter/profile.yaml'), 'utf8');
    await mkdir(join(dir, 'packs/team'), { recursive: true });
    await writeFile(
      join(dir, 'packs/team/profile.yaml'),
      `${starter}\nsluice:\n  gates: [{ id: TS-notice, type: file-present, phases: [0], severity: MUST, with: { file: NOTICE } }]\n`,
    );
    const init = await sluice(['init', '--profile', './packs/team', '--type', 'library', '--name', 'Consumer']);
    assert.equal(init.code, 0, init.stderr);
    const rowOf = (stdout: string) =>
      (JSON.parse(stdout) as { results: { gate: string; passed: boolean | null }[] }).results.find((r) => r.gate === 'TS-notice');
    const missing = await sluice(['gate', '--json']);
    assert.equal(rowOf(missing.stdout)?.passed, false, missing.stdout.slice(0, 400));
    await writeFile(join(dir, 'NOTICE'), 'notice\n');
    const present = await sluice(['gate', '--json']);
    assert.equal(rowOf(present.stdout)?.passed, true);
  });

  it('the root entry is the plugin API: tens of names, none of the kernel side, which `sluice/kernel` has', async () => {
    const root = JSON.parse(
      (await run(process.execPath, ['--input-type=module', '-e', "console.log(JSON.stringify(Object.keys(await import('sluice'))))"], { cwd: dir })).stdout,
    ) as string[];
    assert.ok(root.length <= 30, `${root.length} runtime names: ${root.join(', ')}`);
    for (const name of ['definePlugin', 'defineCommand', 'defineGate', 'defineDelegate', 'defineErrorCodes', 'defineHook', 'SluiceError'])
      assert.ok(root.includes(name), `sluice exports ${name}`);
    assert.deepEqual(
      KERNEL_SIDE.filter((n) => root.includes(n)),
      [],
    );
    // Types too, as a consumer's TypeScript sees the shipped declarations.
    const ts = (await import(pathToFileURL(join(repo, 'node_modules/typescript5/lib/typescript.js')).href)).default as typeof import('typescript5');
    const declarations = (entry: string) => {
      const file = join(dir, 'node_modules/sluice/dist/types/api', entry);
      const program = ts.createProgram([file], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, noEmit: true, types: [] });
      const checker = program.getTypeChecker();
      return checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(file)!)!).map((s) => s.name);
    };
    const named = declarations('index.d.ts');
    assert.ok(named.length <= 100, `${named.length} names with the types: ${named.join(', ')}`);
    for (const name of ['PluginDefinition', 'GateDefinition', 'GateResult', 'CommandDefinition', 'Hooks', 'BeforeAdvanceEvent'])
      assert.ok(named.includes(name), `sluice declares ${name}`);
    assert.deepEqual(
      KERNEL_SIDE.filter((n) => named.includes(n)),
      [],
    );
    const kernelNames = declarations('kernel.d.ts');
    // (Signing is not among them: it moves into the SDLC plugin.)
    for (const name of ['createKernel', 'trustEverything', 'createMemoryHost', 'loadConfig', 'hmacSha256Hex', 'createLocalQueue', 'createStateStore'])
      assert.ok(kernelNames.includes(name), `sluice/kernel exports ${name}`);
  });

  it('a script built on `sluice/kernel` runs a plugin written against `sluice` alone', async () => {
    // The files the type-check above read, run as a consumer runs TypeScript (through tsx).
    const out = await run(process.execPath, ['--import=tsx', join(dir, 'sluice/embed.ts')], { cwd: dir });
    const shown = JSON.parse(out.stdout) as { gates: string[]; commands: string[]; hash: number };
    assert.ok(shown.gates.includes('root-only'));
    assert.ok(shown.commands.includes('root-only'));
    assert.equal(shown.hash, 64);
  });

  it("an org pack's own TypeScript gate plugin loads from the pack after `sluice trust`, and runs as a profile gate", async () => {
    const project = join(dir, 'acme-project');
    await mkdir(project, { recursive: true });
    const at = (args: string[], env: Record<string, string> = {}) => sluice([...args, '--cwd', project], env);
    const init = await at(['init', '--profile', join(dir, 'sluice/acme-pack'), '--name', 'Acme']);
    assert.equal(init.code, 0, init.stderr);
    const refused = await at(['gate'], { SLUICE_TRUSTED_HASH: '' });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /WORKSPACE_UNTRUSTED.*\.sdlc\/profile\.yaml.*sluice\.plugins\[0\]/);
    const hash = (JSON.parse((await at(['trust', '--show', '--json'])).stdout) as { hash: string }).hash;
    const gate = await at(['gate', '--json'], { SLUICE_TRUSTED_HASH: hash });
    const row = (JSON.parse(gate.stdout) as { results: { gate: string; passed: boolean | null; message: string }[] }).results.find(
      (r) => r.gate === 'ACME-license',
    );
    assert.equal(row?.message, 'acme: LICENSES.md is missing', gate.stdout.slice(0, 400) || gate.stderr);
    assert.equal(ACME_GATE_TS.includes("from 'sluice'") && !/from 'sluice\//.test(ACME_GATE_TS), true, 'the pack plugin imports only the root entry');
  });

  it('a .ts plugin without tsx installed fails with an error that says what to do', async () => {
    const bare = await mkdtemp(join(tmpdir(), 'sluice-consumer-bare-'));
    try {
      await writeFile(join(bare, 'package.json'), JSON.stringify({ name: 'bare', private: true, type: 'module' }));
      await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', join(dir, pack.filename)], { cwd: bare });
      await writeFile(join(bare, 'plugin.ts'), TS_HOOK);
      await writeFile(join(bare, 'sluice.config.yaml'), 'plugins: [./plugin.ts]\n');
      const hash = JSON.parse(
        (await run(process.execPath, [join(bare, 'node_modules/sluice/bin/sluice.cjs'), 'trust', '--show', '--json'], { cwd: bare })).stdout,
      ) as { hash: string };
      const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: join(home, 'config'), SLUICE_TRUSTED_HASH: hash.hash };
      const res = await run(process.execPath, [join(bare, 'node_modules/sluice/bin/sluice.cjs'), 'plugins'], { cwd: bare, env }).then(
        () => ({ code: 0, stderr: '' }),
        (e: { code: number; stderr: string }) => e,
      );
      assert.equal(res.code, 2);
      assert.match(res.stderr, /plugin\.ts is TypeScript and tsx is not installed.*npm install tsx/);
    } finally {
      await rm(bare, { recursive: true, force: true });
    }
  });
});
