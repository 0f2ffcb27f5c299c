import * as v from 'valibot';
import { commandOutput, defineCommand, type CommandContext } from '../../../core/index.ts';
import type { DoctorCheck } from './doctor-checks.ts';

const STATUS = ['ok', 'missing', 'stale', 'unsafe', 'off', 'absent', 'person'] as const;

export const DoctorOutput = commandOutput({
  project: v.string(),
  checks: v.array(
    v.strictObject({
      id: v.string(),
      what: v.string(),
      status: v.picklist(STATUS),
      required: v.boolean(),
      detail: v.string(),
      fix: v.optional(v.string()),
      file: v.optional(v.string()),
    }),
  ),
  /** The ids of required protections that are not in force: doctor exits 1 when there is any. */
  failing: v.array(v.string()),
});

const MARK: Record<DoctorCheck['status'], string> = {
  ok: 'ok',
  missing: 'MISSING',
  stale: 'STALE',
  unsafe: 'UNSAFE',
  off: 'off',
  absent: '-',
  person: 'PERSON',
};

/** A short table: status, protection, what is there, and the command that fixes it. */
function table(checks: readonly DoctorCheck[], ctx: CommandContext): string {
  const s = ctx.io.style;
  const width = (f: (c: DoctorCheck) => string) => Math.max(...checks.map((c) => f(c).length));
  const mark = (c: DoctorCheck) => `${MARK[c.status]}${c.required && c.status !== 'ok' ? '!' : ''}`;
  const [w1, w2] = [width(mark), width((c) => c.what)];
  const color = (c: DoctorCheck, text: string) =>
    c.status === 'ok' ? s.green(text) : c.required ? s.red(text) : c.status === 'absent' || c.status === 'off' ? s.dim(text) : s.yellow(text);
  return checks
    .map((c) => {
      const line = `${color(c, mark(c).padEnd(w1))}  ${c.what.padEnd(w2)}  ${c.detail}`;
      return c.fix && c.status !== 'ok' ? `${line}\n${' '.repeat(w1 + w2 + 4)}${s.dim(`fix: ${c.fix}`)}` : line;
    })
    .join('\n');
}

/**
 * `sluice doctor`: which protections are in force for this project on this machine: the OS
 * sandbox for the AI CLIs sluice runs, Claude Code's guard, sandbox and permission settings
 * (compared with what `sluice hooks install claude` would write now), the keys and the trust store
 * (checked as ssh checks keys), signed approvals, and what only a person can change, each with the
 * command that fixes it. Exit 1 when something the project's config or profile requires is
 * missing, or a key sluice would refuse; 0 otherwise.
 */
export const doctorCommand = defineCommand({
  name: 'doctor',
  summary: 'say which protections are in force here (OS sandbox, Claude Code settings, keys, trust) and how to fix what is missing',
  examples: ['sluice doctor', 'sluice doctor --json'],
  output: DoctorOutput,
  async run(_input, ctx) {
    // Loaded when run: the CLI plugin's entry stays light for every other command.
    const { doctorChecks } = await import('./doctor-checks.ts');
    const checks = await doctorChecks(ctx);
    const failing = checks.filter((c) => c.required && c.status !== 'ok').map((c) => c.id);
    const summary = failing.length === 0 ? 'nothing the project requires is missing' : `missing what the project requires: ${failing.join(', ')}`;
    return {
      exitCode: failing.length === 0 ? 0 : 1,
      data: { project: ctx.cwd, checks, failing },
      human: `${table(checks, ctx)}\n${summary}`,
    };
  },
});
