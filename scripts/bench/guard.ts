// The Claude Code guard runs before every tool call: its whole-process time against `node -e 0` and
// against a ten-line Node script that reads the same payload and answers "allow", paired run by run
// (A B C A B C ...) so drift in machine speed cancels out of the ratios. Targets: ≤ 1.5× and ≤ 1.15×.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { isPlainClaudeCommit } from '../../plugins/guard/claude-commit.ts';
import { needsParsing } from '../../plugins/guard/shell-prefilter.ts';

export const name = 'guard';

const RUNS = Number(process.env.SLUICE_BENCH_GUARD_RUNS ?? 40);
/** Every child runs without NODE_EXTRA_CA_CERTS: reading a CA bundle at start-up would pad all three alike and shrink the ratios. */
const CHILD_ENV = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_EXTRA_CA_CERTS'));

const TEN_LINE_ALLOW = `import { readFileSync } from 'node:fs';
const input = JSON.parse(readFileSync(0, 'utf8'));
const tool = input.tool_name;
const path = input.tool_input?.file_path ?? input.tool_input?.command ?? '';
if (typeof tool !== 'string' || typeof path !== 'string') process.exit(0);
const decision = 'allow';
const output = { hookEventName: 'PreToolUse', permissionDecision: decision, permissionDecisionReason: 'ok' };
process.stdout.write(JSON.stringify({ hookSpecificOutput: output }));
process.exitCode = 0;
`;

const PARSED = 'git commit -m "$(cat <<\'EOF\'\nfix: typo\nEOF\n)"';
/** Claude Code's own commit: a quoted heredoc body with an apostrophe, parentheses and `<…>` (heredoc-bodies.ts). */
const CLAUDE_COMMIT =
  "git add -A && git commit -m \"$(cat <<'EOF'\nfix(auth): don't drop the session (refresh)\n\nCo-Authored-By: Claude <noreply@anthropic.com>\nEOF\n)\"";

const READERS = 'cat .sdlc/state.yaml | grep phase | wc -l && git diff -- .sdlc';
const fill = (unit: string, size: number) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
const ONE_MIB = fill('echo hello world $X > out.txt; ', 1024 * 1024);
const THIRTY_KIB = fill('echo hello world $X > out.txt; ', 30 * 1024);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;

/** CPU time (user + system) of the finished children so far, from /proc (Linux; 10 ms ticks), else undefined. */
function childCpuMs(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10; // cutime, cstime
  } catch {
    return undefined;
  }
}

interface Timed {
  ms: number;
  cpuMs: number | undefined;
}

function timeOnce(args: string[], input: string, cwd: string): Timed {
  const cpu = childCpuMs();
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { input, cwd, env: CHILD_ENV, stdio: ['pipe', 'pipe', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${String(r.stderr)}`);
  const after = childCpuMs();
  return { ms, cpuMs: cpu === undefined || after === undefined ? undefined : after - cpu };
}

function payload(project: string, tool: string, toolInput: Record<string, unknown>): string {
  return JSON.stringify({
    session_id: 'bench',
    transcript_path: '/tmp/bench.jsonl',
    cwd: project,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: tool,
    tool_input: toolInput,
    tool_use_id: 'toolu_bench',
  });
}

function paired(guard: string, script: string, input: string, cwd: string, runs = RUNS) {
  const g: number[] = [];
  const n: number[] = [];
  const s: number[] = [];
  const vsNode: number[] = [];
  const vsScript: number[] = [];
  const cpu = { guard: 0, node: 0, script: 0, known: true };
  for (let i = 0; i < 3; i++) timeOnce([guard, 'guard'], input, cwd); // warm the file cache
  for (let i = 0; i < runs; i++) {
    const a = timeOnce([guard, 'guard'], input, cwd);
    const b = timeOnce(['-e', '0'], input, cwd);
    const c = timeOnce([script], input, cwd);
    g.push(a.ms), n.push(b.ms), s.push(c.ms), vsNode.push(a.ms / b.ms), vsScript.push(a.ms / c.ms);
    if (a.cpuMs === undefined || b.cpuMs === undefined || c.cpuMs === undefined) cpu.known = false;
    else (cpu.guard += a.cpuMs), (cpu.node += b.cpuMs), (cpu.script += c.cpuMs);
  }
  return {
    guardMedianMs: round(median(g), 1),
    nodeEmptyMedianMs: round(median(n), 1),
    tenLineScriptMedianMs: round(median(s), 1),
    ratioVsNodeEmpty: round(median(vsNode)),
    ratioVsTenLineScript: round(median(vsScript)),
    // CPU time is what a busy machine does not inflate: the mean over all runs (10 ms ticks, summed).
    ...(cpu.known && cpu.node > 0 && cpu.script > 0
      ? {
          cpuMeanMs: { guard: round(cpu.guard / runs, 1), nodeEmpty: round(cpu.node / runs, 1), tenLineScript: round(cpu.script / runs, 1) },
          cpuRatioVsNodeEmpty: round(cpu.guard / cpu.node),
          cpuRatioVsTenLineScript: round(cpu.guard / cpu.script),
        }
      : {}),
  };
}

export async function run(): Promise<Record<string, unknown>> {
  if (!existsSync('dist/sluice.mjs')) spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  const dir = mkdtempSync(join(tmpdir(), 'sluice-bench-guard-'));
  try {
    const project = join(dir, 'app');
    mkdirSync(join(project, '.sdlc'), { recursive: true });
    writeFileSync(join(project, '.sdlc/state.yaml'), "current_phase: '1'\n");
    const script = join(dir, 'allow.mjs');
    writeFileSync(script, TEN_LINE_ALLOW);
    // The installed command: bin/sluice.cjs, as node_modules/.bin/sluice runs it.
    const guard = join(process.cwd(), 'bin/sluice.cjs');
    return {
      runs: RUNS,
      targets: { ratioVsNodeEmpty: 1.5, ratioVsTenLineScript: 1.15 },
      extraCaCerts: 'unset in every child',
      // The common cases: an edit of source code, and a shell command that names nothing of sluice's.
      edit: paired(guard, script, payload(project, 'Edit', { file_path: join(project, 'src/app.ts'), old_string: 'a', new_string: 'b' }), project),
      bashPlain: paired(guard, script, payload(project, 'Bash', { command: 'npm test 2>&1 | tail -20', description: 'Run tests' }), project),
      // A command the prefilter cannot clear (a commit message from a heredoc). Claude Code's commit shape
      // is recognised whole (claude-commit.ts), so the parser does not load for it; the reader classes below load it.
      bashParsed: {
        prefilterClears: !needsParsing(PARSED, project, [join(homedir(), '.config', 'sluice'), join(homedir(), '.cache', 'sluice')]),
        loadsParser: !isPlainClaudeCommit(PARSED) && needsParsing(PARSED, project, [join(homedir(), '.config', 'sluice'), join(homedir(), '.cache', 'sluice')]),
        ...paired(guard, script, payload(project, 'Bash', { command: PARSED }), project),
      },
      bashClaudeCommit: paired(guard, script, payload(project, 'Bash', { command: CLAUDE_COMMIT }), project),
      // Readers over the records (parsed, judged by the reader rules) and a copy over the root (asked about).
      bashReadersOnRecords: paired(guard, script, payload(project, 'Bash', { command: READERS }), project),
      bashCopyOverRoot: paired(guard, script, payload(project, 'Bash', { command: 'cp -r /tmp/backup/. .' }), project),
      // Past the 32 KiB bound: asked about without being read, so a 1 MiB command costs what reading it costs.
      bashOneMiB: paired(guard, script, payload(project, 'Bash', { command: ONE_MIB }), project),
      // Just under the bound: the parser reads all of it (linear since the tokenizer patch; minutes before).
      bashThirtyKiB: { ...paired(guard, script, payload(project, 'Bash', { command: THIRTY_KIB }), project, 5), runs: 5 },
      mcpWriteFile: paired(guard, script, payload(project, 'mcp__filesystem__write_file', { path: join(project, 'src/app.ts'), content: 'x' }), project),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
