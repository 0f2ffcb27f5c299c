import assert from 'node:assert/strict';
import { cp, mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { runCli, sluiceEntry } from '../helpers/run-cli.ts';
import { evidence, makeRepo, writeFiles } from '../lifecycle/lifecycle-fixture.ts';

/** The tools an agent gets: exactly these, none of what only a person may do. */
const AGENT_TOOLS = [
  'audit',
  'gate',
  'handoff',
  'lifecycle_next',
  'lifecycle_record',
  'lifecycle_start',
  'lifecycle_status',
  'next',
  'specs',
  'status',
  'tune_status',
];
/** Words of the person's own actions: no tool name and no tool argument may carry one. */
const PERSON_ONLY = /approve|confirm|sign|skip|reenter|refreeze|waiver|trust|grant|anchor|commit|justification|init|force/i;

const cacheDir = join(tmpdir(), `sluice-mcp-test-cache-${process.pid}`);
const env = { ...process.env, NO_COLOR: '1', SLUICE_CACHE_DIR: cacheDir } as Record<string, string>;

interface Session {
  client: Client;
  close(): Promise<void>;
}

/** `sluice mcp` started in `cwd` by the SDK's own client, over stdio, as Claude Code, Codex or Gemini CLI start it. */
async function connect(cwd: string): Promise<Session> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [sluiceEntry(), 'mcp'], cwd, env, stderr: 'pipe' });
  const client = new Client({ name: 'sluice-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, close: () => client.close() };
}

type ToolResult = { isError?: boolean; structuredContent?: Record<string, unknown>; content: { type: string; text?: string }[] };
const call = (s: Session, name: string, args: Record<string, unknown> = {}) => s.client.callTool({ name, arguments: args }) as Promise<ToolResult>;
const cliJson = async (cwd: string, args: string[]) => JSON.parse((await runCli([...args, '--json'], { cwd, env })).stdout) as Record<string, unknown>;

/** Times change from one run to the next; everything else must be the same. */
const timeless = (doc: unknown) => JSON.parse(JSON.stringify(doc).replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>'));

describe('sluice mcp (driven by the MCP SDK client over stdio)', () => {
  let project: string;
  let session: Session;

  before(async () => {
    project = await realpath(await mkdtemp(join(tmpdir(), 'sluice-mcp-')));
    assert.equal((await runCli(['init', '--name', 'MCP Demo', '--type', 'service'], { cwd: project, env })).code, 0);
    session = await connect(project);
  });
  after(async () => {
    await session?.close();
    await rm(project, { recursive: true, force: true });
    await rm(cacheDir, { recursive: true, force: true });
  });

  it("lists the agent's tools, with JSON Schemas, and none of the person-only actions", async () => {
    const { tools } = await session.client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), AGENT_TOOLS);
    for (const tool of tools) {
      assert.equal(tool.inputSchema.type, 'object', tool.name);
      assert.equal((tool.inputSchema as { additionalProperties?: unknown }).additionalProperties, false, `${tool.name} refuses unknown arguments`);
      const args = Object.keys(tool.inputSchema.properties ?? {});
      assert.ok(!PERSON_ONLY.test(tool.name) && !args.some((a) => PERSON_ONLY.test(a)), `${tool.name}(${args.join(', ')})`);
      assert.equal(tool.outputSchema?.type, 'object', `${tool.name} declares its document`);
    }
    const record = tools.find((t) => t.name === 'lifecycle_record')!;
    const stages = (record.inputSchema.properties as { stage: { enum: string[] } }).stage.enum;
    assert.ok(!stages.includes('commit'), 'a commit needs the person: no stage for it');
  });

  it('`status` and `gate` answer with the same documents as the CLI’s --json', async () => {
    const status = await call(session, 'status');
    assert.equal(status.isError, false);
    assert.deepEqual(status.structuredContent, await cliJson(project, ['status']));
    assert.deepEqual(JSON.parse(status.content[0].text!), status.structuredContent, 'the text content is the same document');

    const gate = await call(session, 'gate');
    assert.equal(gate.isError, false, 'a blocked gate is an answer, not a failed call');
    assert.equal(gate.structuredContent?.ok, false);
    assert.deepEqual(gate.structuredContent, await cliJson(project, ['gate']));
    const phase2 = await call(session, 'gate', { phase: '2' });
    assert.deepEqual(phase2.structuredContent, await cliJson(project, ['gate', '--phase', '2']));
  });

  it('reads the files afresh on every call: a change made meanwhile shows at once', async () => {
    const before = await call(session, 'next');
    assert.equal(before.structuredContent?.ok, false);
    await rm(join(project, '.sdlc', 'artifacts', '00-discovery'), { recursive: true });
    const gate = await call(session, 'gate');
    assert.deepEqual(gate.structuredContent, await cliJson(project, ['gate']));
    assert.ok(JSON.stringify(gate.structuredContent).includes('is missing'), 'the removed folder is seen');
  });

  it('bad arguments, unknown tools and refused stages are tool errors, never a crash', async () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['gate', { phase: 42 }, /^USAGE$/],
      ['gate', { phase: 'nope' }, /^PHASE_UNKNOWN$/],
      ['status', { cwd: '/' }, /^USAGE$/],
      ['specs', { wipCap: -1 }, /^USAGE$/],
      ['lifecycle_next', { slug: '../../etc' }, /^USAGE$/],
      ['lifecycle_record', { slug: 'feat', stage: 'commit' }, /^USAGE$/],
      ['lifecycle_record', { slug: 'feat' }, /^USAGE$/],
      ['skip', {}, /^UNKNOWN_COMMAND$/],
    ];
    for (const [name, args, code] of cases) {
      const r = await call(session, name, args);
      assert.equal(r.isError, true, `${name} ${JSON.stringify(args)}`);
      const error = (r.structuredContent as { ok: boolean; error: { code: string; message: string } }).error;
      assert.match(error.code, code, `${name} ${JSON.stringify(args)}: ${error.message}`);
    }
    assert.equal((await call(session, 'status')).isError, false, 'the server still answers');
  });

  it('offers the dashboards and the written reports as resources', async () => {
    assert.equal((await runCli(['report'], { cwd: project, env })).code, 0);
    const { resources } = await session.client.listResources();
    const uris = resources.map((r) => r.uri);
    assert.ok(uris.includes('sluice://view/status'), uris.join(', '));
    const page = resources.find((r) => r.uri.startsWith('sluice://report/.sdlc/reports/') && r.mimeType === 'text/html');
    assert.ok(page, uris.join(', '));
    const status = await session.client.readResource({ uri: 'sluice://view/status' });
    assert.match(String((status.contents[0] as { text?: string }).text), /^MCP Demo \(profile starter/);
    const html = await session.client.readResource({ uri: page.uri });
    assert.match(String((html.contents[0] as { text?: string }).text), /<html/i);
    await assert.rejects(session.client.readResource({ uri: 'sluice://report/../../etc/passwd' }), /no sluice resource/);
  });
});

describe('sluice mcp lifecycle_start', () => {
  it('starts a requirement as `sluice lifecycle start --json` does (the route when a sandbox keeps the records read-only to Bash)', async () => {
    const viaCli = await makeRepo();
    const viaMcp = await makeRepo();
    const session = await connect(viaMcp);
    try {
      const cli = await cliJson(viaCli, ['lifecycle', 'start', 'feat', '--goal', 'accept 1h30m']);
      const started = await call(session, 'lifecycle_start', { slug: 'feat', goal: 'accept 1h30m' });
      assert.equal(started.isError, false, JSON.stringify(started.structuredContent));
      assert.deepEqual(timeless(started.structuredContent), timeless(cli));
      const next = await call(session, 'lifecycle_next', { slug: 'feat' });
      assert.deepEqual(timeless(next.structuredContent), timeless(await cliJson(viaCli, ['lifecycle', 'next', 'feat'])));
      const refused = await call(session, 'lifecycle_start', { slug: 'Not A Slug' });
      assert.equal(refused.isError, true, 'a bad slug is refused before sluice runs');
    } finally {
      await session.close();
      await rm(viaCli, { recursive: true, force: true });
      await rm(viaMcp, { recursive: true, force: true });
    }
  });
});

describe('sluice mcp lifecycle_record', () => {
  it('records a stage from its artifact with the same result as `sluice lifecycle record --json`', async () => {
    const viaCli = await makeRepo();
    assert.equal((await runCli(['lifecycle', 'start', 'feat', '--goal', 'x'], { cwd: viaCli, env })).code, 0);
    await writeFiles(viaCli, evidence.plan('feat'));
    const viaMcp = await realpath(await mkdtemp(join(tmpdir(), 'sluice-mcp-lifecycle-')));
    await cp(viaCli, viaMcp, { recursive: true });

    const cli = await cliJson(viaCli, ['lifecycle', 'record', 'feat', 'plan']);
    assert.equal(cli.ok, true, JSON.stringify(cli));
    const session = await connect(viaMcp);
    try {
      const recorded = await call(session, 'lifecycle_record', { slug: 'feat', stage: 'plan' });
      assert.equal(recorded.isError, false, JSON.stringify(recorded.structuredContent));
      assert.deepEqual(timeless(recorded.structuredContent), timeless(cli));
      const status = await call(session, 'lifecycle_status', { slugs: ['feat'] });
      // The copy's journal was started in the other folder, so here it is anchored from the MCP write on.
      const copied = timeless(status.structuredContent) as { requirements: { records: Record<string, unknown> }[] };
      assert.equal(copied.requirements[0].records.unanchoredThrough, 1);
      delete copied.requirements[0].records.unanchoredThrough;
      assert.deepEqual(copied, timeless(await cliJson(viaCli, ['lifecycle', 'status', 'feat'])));
      const again = await call(session, 'lifecycle_record', { slug: 'feat', stage: 'test' });
      assert.equal(again.isError, false, 'a rule the stage breaks is a blocked answer (exit 1), as in the CLI');
      assert.equal((again.structuredContent as { error: { code: string } }).error.code, 'LIFECYCLE_RULE');
    } finally {
      await session.close();
      await rm(viaCli, { recursive: true, force: true });
      await rm(viaMcp, { recursive: true, force: true });
    }
  });
});
