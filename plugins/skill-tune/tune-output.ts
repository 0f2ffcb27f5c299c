import * as v from 'valibot';
import { commandOutput, ErrorOutputSchema } from '../../core/index.ts';

/** `sluice tune --json`: one run's outcome; several (skills spread over workers) under `runs`; or what --restore put back. */
const run = {
  runDir: v.string(),
  reportPath: v.string(),
  chartPath: v.string(),
  statePath: v.string(),
  alreadyFinished: v.boolean(),
  reason: v.string(),
  message: v.string(),
  falling: v.boolean(),
  iterations: v.array(v.strictObject({ iteration: v.number(), phase: v.string(), score: v.nullable(v.number()), improvement: v.nullable(v.string()) })),
  finalScore: v.nullable(v.number()),
  best: v.nullable(v.strictObject({ iteration: v.number(), score: v.number() })),
  threshold: v.number(),
  restoreCommand: v.string(),
  failures: v.array(v.strictObject({ iteration: v.number(), note: v.string() })),
  outsideChanges: v.array(
    v.strictObject({
      iteration: v.number(),
      role: v.string(),
      path: v.string(),
      change: v.picklist(['added', 'modified', 'removed']),
      restored: v.boolean(),
      copy: v.optional(v.string()),
      note: v.optional(v.string()),
    }),
  ),
  failBelow: v.optional(v.number()),
  belowFailScore: v.optional(v.boolean()),
};

export const TuneOutput = v.union([
  commandOutput(run),
  commandOutput({
    runs: v.array(
      v.union([
        v.strictObject({ skills: v.string(), ranOn: v.string(), ...run }),
        v.strictObject({ skills: v.string(), error: ErrorOutputSchema.entries.error }),
      ]),
    ),
  }),
  commandOutput({
    runDir: v.string(),
    source: v.string(),
    skills: v.array(v.strictObject({ id: v.string(), path: v.string(), changed: v.array(v.string()) })),
    outside: v.strictObject({ putBack: v.array(v.string()), couldNot: v.array(v.strictObject({ path: v.string(), why: v.string() })) }),
  }),
]);
