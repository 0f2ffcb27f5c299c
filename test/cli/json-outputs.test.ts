import assert from 'node:assert/strict';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import * as v from 'valibot';
import { commandDocumentSchema, createKernel, defaultConfig, outputSchemaName, type Kernel, type SchemaEntry } from '../../core/index.ts';
import { builtinPlugins } from '../../plugins/cli/builtin-plugins.ts';
import { exportJsonSchema } from '../../plugins/cli/commands/export-json-schema.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';
import { redisServerMissing, startRedisServer } from '../helpers/redis-server.ts';
import { runProcess } from '../helpers/run-cli.ts';
import { evidence, makeRepo, writeFiles } from '../lifecycle/lifecycle-fixture.ts';
import { runSluice, sluiceBundle } from '../sdlc/sluice-cli.ts';
import { scriptBackends } from '../helpers/tune-backends.ts';
import { useTestQueueKey } from '../helpers/queue-key.ts';

// `queue key` shows the test's own queue key, never the person's.
useTestQueueKey();

/**
 * The --json documents are an interface: every command declares a schema for its output, `sluice schema`
 * exports it, and here every command runs for real (in projects prepared by `sluice demo` and a few
 * fresh ones) and what it printed is checked against the exported JSON Schema, as a consumer would.
 */
const repo = fileURLToPath(new URL('../..', import.meta.url));
const LIFECYCLE_SCRIPT = join(repo, 'plugins/lifecycle/demo/demo-script.yaml');
const HANDOFF = join(repo, 'test/fixtures/sdlc-views/session-handoff.json');
const TUNE_SCENARIO =
  'Write release notes for version 2.4.0 from these merged changes: "fix null check in parser", "add --verbose flag", "drop Node 18", "speed up cold start".';

interface Run {
  /** The registered command name the line runs (`lifecycle run`). */
  command: string;
  args: string[];
  dir: string;
  env?: Record<string, string>;
  input?: string;
}

interface Printed {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The bundled CLI with stdin (the guard reads its payload there). */
async function sluiceWithInput(dir: string, args: string[], input: string): Promise<Printed> {
  return runProcess(process.execPath, [await sluiceBundle(), '--cwd', dir, ...args], { env: { ...process.env, NO_COLOR: '1' }, input });
}

/** A command's output schema is registered with the command (never lazily). */
function eager(entry: SchemaEntry): SchemaEntry & { schema: v.GenericSchema } {
  assert.ok(entry.schema, `${entry.name} is registered with its schema`);
  return { ...entry, schema: entry.schema };
}

describe('JSON outputs are an interface', () => {
  let base: string;
  let kernel: Kernel;
  const runs: Run[] = [];

  before(async () => {
    base = await mkdtemp(join(tmpdir(), 'sluice-json-outputs-'));
    kernel = await createKernel({ host: createNodeHost({ cwd: base }), projectRoot: base, plugins: builtinPlugins, config: defaultConfig() });
  });
  after(() => rm(base, { recursive: true, force: true }));

  it('every command has an output schema, listed by `sluice schema --list` (a command that gains output without one fails here)', async () => {
    const names = kernel.commands.entries().map((e) => e.value.name);
    assert.ok(names.length > 20, `the built-in commands are loaded: ${names.join(', ')}`);
    const missing = kernel.commands
      .entries()
      .filter((e) => e.value.output === undefined)
      .map((e) => e.value.name);
    assert.deepEqual(missing, [], '--json is accepted by every command, so every command declares its document');
    const listed = await runSluice(base, ['schema', '--list', '--json']);
    assert.equal(listed.code, 0, listed.stderr);
    const schemas = (JSON.parse(listed.stdout) as { schemas: { name: string; kind: string }[] }).schemas;
    for (const name of names)
      assert.ok(
        schemas.some((s) => s.name === outputSchemaName(name) && s.kind === 'output'),
        `${outputSchemaName(name)} is listed`,
      );
    assert.ok(
      schemas.some((s) => s.name === 'config' && s.kind === 'file'),
      'file formats are listed beside them',
    );
    const gate = await runSluice(base, ['schema', 'gate-output']);
    assert.deepEqual(
      JSON.parse(gate.stdout),
      exportJsonSchema(eager(kernel.schemas.require('gate-output'))),
      'what `sluice schema` prints is what the tests check against',
    );
  });

  it('every command run for real prints one document that its exported JSON Schema accepts', async () => {
    // Projects: the demo's three (an SDLC project at its close, lifecycle requirements, a tuned skill) and fresh ones.
    const demoDir = join(base, 'demo');
    runs.push({ command: 'demo', args: ['demo', '--dir', demoDir], dir: base });
    const demo = await runSluice(base, ['demo', '--dir', demoDir, '--json']);
    assert.equal(demo.code, 0, demo.stderr);
    const sdlc = join(demoDir, 'sdlc-project');
    const tune = join(demoDir, 'skill-tune-project');
    const closed = join(base, 'closed');
    await cp(sdlc, closed, { recursive: true });
    await mkdir(join(sdlc, '.sdlc/artifacts/build'), { recursive: true });
    await writeFile(join(sdlc, '.sdlc/artifacts/build/session-handoff.json'), await readFile(HANDOFF));
    const fresh = join(base, 'fresh');
    await mkdir(fresh);
    const lifecycle = await makeRepo();
    const lifecycleRun = await makeRepo();
    await writeFiles(lifecycleRun, { '.prizmkit/specs/feat/spec.md': '# feat\n\nGoal.\n' });

    runs.push(
      { command: 'init', args: ['init', '--profile', 'starter', '--name', 'Fresh', '--type', 'library'], dir: fresh },
      { command: 'gate', args: ['gate'], dir: fresh },
      { command: 'waivers accept', args: ['waivers', 'accept', '--signed-by', 'Ana Ruiz', '--reason', 'reviewed'], dir: fresh },
      { command: 'next', args: ['next'], dir: fresh },
      { command: 'skip', args: ['skip', '--justification', 'discovery done elsewhere', '--confirmed'], dir: fresh },
      { command: 'reenter', args: ['reenter', '0', '--justification', 'back to discovery', '--confirmed'], dir: fresh },
      { command: 'gate', args: ['gate', '--phase', 'close'], dir: sdlc },
      { command: 'next', args: ['next'], dir: sdlc },
      { command: 'status', args: ['status'], dir: sdlc },
      { command: 'audit', args: ['audit'], dir: sdlc },
      { command: 'specs', args: ['specs'], dir: sdlc },
      { command: 'report', args: ['report', '--all'], dir: sdlc },
      { command: 'handoff', args: ['handoff'], dir: sdlc },
      { command: 'profile validate', args: ['profile', 'validate', '.sdlc/profile.yaml'], dir: sdlc },
      { command: 'refreeze', args: ['refreeze', '.sdlc/profile.yaml', '--reason', 'reviewed'], dir: closed },
      { command: 'lifecycle start', args: ['lifecycle', 'start', 'feat', '--goal', 'do it'], dir: lifecycle },
      { command: 'lifecycle next', args: ['lifecycle', 'next', 'feat'], dir: lifecycle },
      { command: 'lifecycle record', args: ['lifecycle', 'record', 'feat', 'plan'], dir: lifecycle },
      { command: 'lifecycle recover', args: ['lifecycle', 'recover', 'feat'], dir: lifecycle },
      { command: 'lifecycle status', args: ['lifecycle', 'status'], dir: lifecycle },
      // Refused (the requirement is not at its commit): the error document.
      { command: 'lifecycle adopt-commit', args: ['lifecycle', 'adopt-commit', 'feat', 'HEAD'], dir: lifecycle },
      { command: 'lifecycle run', args: ['lifecycle', 'run', 'feat', '--to', 'script', '--script', LIFECYCLE_SCRIPT], dir: lifecycleRun },
      { command: 'delegate', args: ['delegate', '--to', 'script', '--script', LIFECYCLE_SCRIPT, 'Plan the login change'], dir: lifecycle },
      { command: 'delegate', args: ['delegate', '--to', 'script', '--reset'], dir: lifecycle },
      {
        command: 'tune',
        args: ['tune', '.claude/skills/release-notes', '--scenario', TUNE_SCENARIO, '--preset', 'quick', '-y', ...scriptBackends],
        dir: tune,
        env: { SLUICE_DELEGATE_SCRIPT: 'tune-demo-script.yaml' },
      },
      { command: 'tune status', args: ['tune', 'status'], dir: tune },
      // The MCP server serves until its client closes stdin: at once here, so it prints what it served.
      { command: 'mcp', args: ['mcp'], dir: fresh, input: '' },
      { command: 'hooks install', args: ['hooks', 'install', 'claude'], dir: fresh },
      { command: 'doctor', args: ['doctor'], dir: fresh },
      { command: 'guard', args: ['guard'], dir: fresh, input: '{"tool_name":"Write","tool_input":{"file_path":".sdlc/state.yaml"}}' },
      { command: 'trust', args: ['trust', '--show'], dir: fresh },
      { command: 'anchor', args: ['anchor', '--show'], dir: lifecycle },
      { command: 'anchor', args: ['anchor'], dir: sdlc },
      { command: 'trust', args: ['trust', '--revoke'], dir: fresh },
      { command: 'plugins', args: ['plugins'], dir: fresh },
      { command: 'errors', args: ['errors'], dir: fresh },
      { command: 'errors', args: ['errors', 'LOCK_BUSY'], dir: fresh },
      { command: 'schema', args: ['schema', '--list'], dir: fresh },
      { command: 'schema', args: ['schema', 'gate-output'], dir: fresh },
      // Failures print the error document, which every output schema admits.
      { command: 'reenter', args: ['reenter', '42'], dir: fresh },
    );
    await writeFiles(lifecycle, evidence.plan('feat'));

    const problems: string[] = [];
    for (const run of runs.slice(1)) {
      const printed =
        run.input === undefined
          ? await runSluice(run.dir, [...run.args, '--json'], run.env)
          : await sluiceWithInput(run.dir, [...run.args, '--json'], run.input);
      problems.push(...judge(run, printed));
    }
    problems.push(...judge(runs[0], demo));
    assert.deepEqual(problems, []);
  });

  const ajv = new Ajv({ strict: false, allErrors: true });
  function judge(run: Run, printed: Printed): string[] {
    const line = `sluice ${run.args.join(' ')} --json (exit ${printed.code})`;
    let doc: Record<string, unknown>;
    try {
      doc = JSON.parse(printed.stdout);
    } catch {
      return [`${line}: stdout is not one JSON document:\n${printed.stdout.slice(0, 400)}\n${printed.stderr.slice(0, 400)}`];
    }
    const out: string[] = [];
    if (Object.keys(doc)[0] !== 'ok') out.push(`${line}: ok is not the first field`);
    if (doc.ok !== (printed.code === 0)) out.push(`${line}: ok is ${String(doc.ok)} but the exit code is ${printed.code}`);
    const def = kernel.commands.get(run.command);
    if (!def?.output) return [...out, `${line}: no output schema for ${run.command}`];
    const parsed = v.safeParse(commandDocumentSchema(def.output), doc);
    if (!parsed.success) out.push(`${line}: valibot: ${parsed.issues.map((i) => `${v.getDotPath(i) ?? ''}: ${i.message}`).join('; ')}`);
    const exported = exportedSchema(run.command);
    const validate = ajv.getSchema(String(exported.$id)) ?? ajv.compile(exported);
    if (!validate(doc)) out.push(`${line}: JSON Schema: ${ajv.errorsText(validate.errors?.slice(0, 5))}`);
    return out;
  }

  const noRedis = redisServerMissing();
  it('the queue commands print documents their schemas accept (against a Redis of their own)', { skip: noRedis }, async (t) => {
    const redis = await startRedisServer(t as never);
    const problems: string[] = [];
    for (const args of [
      ['queue', 'status'],
      ['queue', 'retry', 'no-such-job'],
      ['queue', 'drain'],
      ['queue', 'key'],
    ]) {
      const run: Run = { command: args.slice(0, 2).join(' '), args: [...args, '--queue', redis.url], dir: base };
      runs.push(run);
      problems.push(...judge(run, await runSluice(base, [...run.args, '--json'])));
    }
    assert.deepEqual(problems, []);
  });

  /** The JSON Schema a consumer gets from `sluice schema NAME-output` (the same export, in-process). */
  const exportedSchema = (command: string) => exportJsonSchema(eager(kernel.schemas.require(outputSchemaName(command))));

  it('every command was run above', { skip: noRedis && `the queue commands were not run: ${noRedis}` }, () => {
    // `sluice worker` serves until it is stopped; the queue-redis tests run it, its document is a count of what it did.
    const ran = new Set([...runs.map((r) => r.command), 'worker']);
    const notRun = kernel.commands
      .entries()
      .map((e) => e.value.name)
      .filter((name) => !ran.has(name));
    assert.deepEqual(notRun, [], 'a new command needs a run in the list above');
  });
});
