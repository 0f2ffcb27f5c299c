import * as v from 'valibot';
import { commandOutput } from '../core/index.ts';

/** `sluice delegate --json`: the run's result (core DelegateResult), a failure as an `error` object; or what --reset reset. */
export const DelegateOutput = v.union([
  commandOutput({
    backend: v.string(),
    status: v.picklist(['ok', 'error', 'timeout', 'cancelled']),
    exitCode: v.pipe(v.nullable(v.number()), v.description("The backend process's exit code.")),
    text: v.string(),
    json: v.optional(v.unknown()),
    sessionId: v.optional(v.string()),
    costUsd: v.optional(v.number()),
    numTurns: v.optional(v.number()),
    durationMs: v.number(),
    transcriptPath: v.string(),
    tries: v.number(),
    deniedActions: v.optional(v.pipe(v.array(v.string()), v.description('Actions the CLI refused on its own (agy `denied_actions`).'))),
    warnings: v.optional(v.pipe(v.array(v.string()), v.description('What did not fail the run but may have changed its answer; also printed on stderr.'))),
    error: v.optional(v.strictObject({ code: v.literal('DELEGATE_FAILED'), message: v.string() })),
  }),
  commandOutput({ reset: v.string() }),
]);
