import { defineCommand, errorCodeEntry, SluiceError, type Kernel, SANDBOX_OPTION } from '../../../core/index.ts';
import { createLifecycleContext, type LifecycleContext } from '../lifecycle-context.ts';
import type { RequirementOutcome, RunLifecycleOptions, RunSummary } from '../runner/run-lifecycle.ts';
import { LifecycleRunOutput } from './lifecycle-outputs.ts';

const EXIT: Record<RequirementOutcome['outcome'], number> = { committed: 0, blocked: 1, 'awaiting-authorization': 1, interrupted: 1, busy: 3, failed: 2 };

export const lifecycleRunCommand = defineCommand({
  name: 'lifecycle run',
  summary: 'drive requirements through every stage with a delegate, in parallel; resumable after a kill',
  args: ['[slugs...]'],
  options: [
    { flags: '--to <backend>', description: 'delegate backend that runs the stages (claude, codex, agy, script, ...)' },
    SANDBOX_OPTION,
    { flags: '--script <file>', description: 'script file for the script backend (request extra.script)' },
    { flags: '--model <name>', description: 'model passed to the backend' },
    { flags: '--timeout <seconds>', description: 'wall clock limit of each stage run' },
    { flags: '--attempts <n>', description: 'delegate attempts per stage before it is recorded as blocked', default: '2' },
    {
      flags: '--remote <url>',
      description: 'run each requirement as a job in its own clone of this git remote (default with --queue: origin), branch sluice/<slug>',
    },
  ],
  examples: ['sluice lifecycle run --to claude --concurrency 4', 'sluice lifecycle run parse-durations fix-123 --to script --script demo.yaml --json'],
  output: LifecycleRunOutput,
  async run({ args, options }, ctx) {
    const backend = options.to as string | undefined;
    if (!backend) throw new SluiceError('USAGE', { field: '--to', message: 'name the delegate backend with --to (see `sluice plugins`)' });
    const attempts = positiveInt(options.attempts, '--attempts', 5);
    const timeout = options.timeout === undefined ? undefined : positiveInt(options.timeout, '--timeout', 86_400);
    const lc = createLifecycleContext(ctx.kernel, ctx.cwd);
    const run = await chooseRunner(ctx.kernel, options.remote as string | undefined);
    const summary = await run(lc, {
      slugs: (args[0] as string[] | undefined) ?? [],
      backend,
      ...(options.script ? { extra: { script: options.script as string } } : {}),
      ...(options.model ? { model: options.model as string } : {}),
      ...(timeout ? { timeoutMs: timeout * 1000 } : {}),
      maxAttempts: attempts,
      authorize: { io: ctx.io },
      progress: ctx.io.progress('lifecycle'),
      signal: ctx.signal,
    });
    const s = ctx.io.style;
    const mark: Record<RequirementOutcome['outcome'], string> = {
      committed: s.green('✓'),
      blocked: s.red('✗'),
      'awaiting-authorization': s.yellow('…'),
      busy: s.yellow('↷'),
      failed: s.red('!'),
      interrupted: s.yellow('‖'),
    };
    const width = Math.max(12, ...summary.requirements.map((r) => r.slug.length));
    const lines = summary.requirements.map((r) => {
      const detail =
        r.error?.message ??
        (r.blocker
          ? `${r.blocker.rule}: ${r.blocker.reason}${r.unblock ? `; once resolved: ${r.unblock}` : ''}`
          : r.commit
            ? `commit ${r.commit.slice(0, 12)}`
            : r.nextStage
              ? `next ${r.nextStage}${'authorization' in r && r.authorization ? ` (${r.authorization})` : ''}`
              : '');
      return `${mark[r.outcome]} ${r.slug.padEnd(width)} ${r.outcome.padEnd(22)} ${s.dim(`${r.stages.length} stage run${r.stages.length === 1 ? '' : 's'}${r.staleReset.length ? `, redid ${r.staleReset.join('/')} (workspace changed)` : ''} · ${detail}`)}`;
    });
    const c = summary.counts;
    lines.push(
      '',
      `${c.committed} committed, ${c.blocked} blocked, ${c['awaiting-authorization']} awaiting commit authorization${c.failed ? `, ${c.failed} failed` : ''}${c.busy ? `, ${c.busy} busy` : ''}${c.interrupted ? `, ${c.interrupted} interrupted` : ''} in ${(summary.durationMs / 1000).toFixed(1)} s`,
    );
    const exitCode = Math.max(
      0,
      ...summary.requirements.map((r) => (r.outcome === 'failed' && r.error ? (errorCodeEntry(r.error.code)?.exit ?? 2) : EXIT[r.outcome])),
    );
    return { exitCode, data: summary, human: lines.join('\n') };
  },
});

/**
 * Local (this workspace) by default; with --remote, or a distributed queue (--queue), one durable job per
 * requirement on the kernel's dispatcher, each in its own clone: in this process, or on `sluice worker`s.
 */
async function chooseRunner(kernel: Kernel, remote: string | undefined): Promise<(lc: LifecycleContext, o: RunLifecycleOptions) => Promise<RunSummary>> {
  if (remote === undefined && kernel.dispatcher.kind === 'local') return (await import('../runner/run-lifecycle.ts')).runLifecycle;
  const { runLifecycleOnWorkers } = await import('../remote/run-on-workers.ts');
  return (lc, o) => runLifecycleOnWorkers(lc, { ...o, ...(remote === undefined ? {} : { remote }), dispatcher: kernel.dispatcher });
}

function positiveInt(value: unknown, flag: string, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new SluiceError('USAGE', { field: flag, message: `${flag} must be an integer from 1 to ${max}, got ${JSON.stringify(value)}` });
  return n;
}
