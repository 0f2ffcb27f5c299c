import * as v from 'valibot';
import { defineGate, gatePlugin, redactSecrets, type GateResult } from '../core/index.ts';

export const CommandGateInputSchema = v.object({
  projectRoot: v.string(),
  /** The gate id from the profile pack (`lint`, `acme-sast`); the `gate` field of the result. */
  id: v.string(),
  /** Program and arguments; run directly, never through a shell. */
  argv: v.array(v.string()),
  severity: v.optional(v.picklist(['MUST', 'SHOULD', 'MAY'])),
  description: v.optional(v.string()),
  timeoutMs: v.optional(v.number()),
  /** The file the gate is configured in, for trust errors (default `.sdlc/profile.yaml`). */
  source: v.optional(v.string()),
});
export type CommandGateInput = v.InferOutput<typeof CommandGateInputSchema>;

/** Output kept for the message: the end of it, where tools print their verdict. */
const TAIL_BYTES = 2048;

function tail(): { push(chunk: Uint8Array): void; text(): string } {
  let buf = new Uint8Array(0);
  return {
    push(chunk) {
      const joined = new Uint8Array(buf.length + chunk.length);
      joined.set(buf);
      joined.set(chunk, buf.length);
      buf = joined.length > TAIL_BYTES ? joined.slice(joined.length - TAIL_BYTES) : joined;
    },
    text: () => new TextDecoder().decode(buf),
  };
}

const lastLine = (s: string) =>
  s
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .pop() ?? '';

/**
 * The `command` gate: runs one program (shell-free argv) in the project root through the Host and
 * passes on exit 0. For org gate packs: `sluice.gates: [{id: lint, type: command, phases: [build], argv: [npm, run, lint]}]`.
 */
export const commandGate = defineGate({
  type: 'command',
  id: 'command',
  description: 'runs a command without a shell; passes on exit 0',
  input: CommandGateInputSchema,
  // The argv comes from a project file: the kernel runs it only in a trusted workspace.
  runs: (input) => ({ file: input.source ?? '.sdlc/profile.yaml', what: `sluice.gates.${input.id}`, argv: input.argv }),
  async check(input, { host, signal }) {
    const [command, ...args] = input.argv;
    const out = tail();
    const result = await host.spawn({
      command,
      args,
      cwd: input.projectRoot,
      timeoutMs: input.timeoutMs ?? 10 * 60_000,
      signal,
      onStdout: out.push,
      onStderr: out.push,
    });
    const check = input.argv.join(' ');
    const said = lastLine(out.text());
    let message: string;
    if (result.spawnError) message = `cannot start ${command}: ${result.spawnError}`;
    else if (result.timedOut) message = `timed out after ${Math.round((input.timeoutMs ?? 600_000) / 1000)} s`;
    else if (result.cancelled) message = 'cancelled';
    else message = `exit ${result.exitCode ?? `signal ${result.signal}`}${said ? `: ${said.slice(0, 300)}` : ''}`;
    const passed = result.exitCode === 0 && !result.timedOut && !result.spawnError && !result.cancelled;
    // The row is stored in state.yaml and history: a tool printing a token or a connection string must not put it there.
    const env = host.envAll();
    const row: GateResult = {
      gate: input.id,
      id: input.id,
      check: redactSecrets(check, env),
      passed,
      message: redactSecrets(message, env),
      severity: input.severity ?? 'MUST',
      durationMs: Math.round(result.durationMs),
    };
    return [row];
  },
});

export const commandGatePlugin = gatePlugin(commandGate);
