import * as v from 'valibot';

/**
 * The `script` delegate's file format (`sluice schema delegate-script`). Users write these files to
 * replay answers without an AI CLI: `sluice demo`, dry runs and their own pipeline tests.
 * Objects are strict so a misspelt key (`repy:`) is reported instead of silently ignored.
 */
const ScriptReplyObjectSchema = v.strictObject({
  text: v.optional(v.pipe(v.string(), v.description('the answer text; $1..$9 and $<name> substitute capture groups'))),
  json: v.optional(v.pipe(v.unknown(), v.description("structured output, returned as the result's `json` (strings get the same substitution)"))),
  files: v.optional(
    v.pipe(
      v.record(v.pipe(v.string(), v.minLength(1)), v.string()),
      v.description('files written relative to the run working directory before answering; write mode only; paths must stay inside it'),
    ),
  ),
  status: v.optional(v.pipe(v.picklist(['ok', 'error', 'timeout']), v.description('simulated outcome (default ok)'))),
  exitCode: v.optional(v.pipe(v.number(), v.integer(), v.description('simulated exit code (default 0 for ok, 1 for error)'))),
  delayMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.description('simulated run time; honours the timeout and cancellation'))),
  error: v.optional(v.pipe(v.string(), v.description('failure message for status error'))),
  transient: v.optional(v.pipe(v.boolean(), v.description('marks an error as retryable (the runner retries with backoff)'))),
});

export const ScriptReplySchema = v.union([v.pipe(v.string(), v.description('just the answer text')), ScriptReplyObjectSchema]);

const validRegExp = (source: string, flags: string): boolean => {
  try {
    new RegExp(source, flags);
    return true;
  } catch {
    return false;
  }
};

const ScriptRuleSchema = v.pipe(
  v.strictObject({
    match: v.pipe(
      v.string(),
      v.description(
        'JavaScript regular expression tested against the prompt (RE2 syntax runs in linear time; lookaround and backreferences run with a time limit)',
      ),
    ),
    flags: v.optional(
      v.pipe(v.string(), v.regex(/^[dgimsuvy]*$/, 'flags must be JavaScript RegExp flags (dgimsuvy)'), v.description('RegExp flags (default "s")')),
    ),
    mode: v.optional(v.pipe(v.picklist(['write', 'analysis']), v.description('the rule applies only to runs in this mode'))),
    reply: v.optional(ScriptReplySchema),
    replies: v.optional(v.pipe(v.array(ScriptReplySchema), v.minLength(1), v.description('used one per matching call in order; the last repeats'))),
  }),
  v.forward(
    v.check((r) => validRegExp(r.match, r.flags ?? 's'), 'match is not a valid JavaScript regular expression'),
    ['match'],
  ),
  v.check((r) => (r.reply === undefined) !== (r.replies === undefined), 'a rule needs exactly one of `reply` or `replies`'),
);

export const DelegateScriptSchema = v.strictObject({
  version: v.literal(1),
  rules: v.optional(v.pipe(v.array(ScriptRuleSchema), v.description('first matching rule wins')), []),
  default: v.optional(v.pipe(ScriptReplySchema, v.description('reply when no rule matches; without it such a run fails'))),
});

export type DelegateScript = v.InferOutput<typeof DelegateScriptSchema>;
export type ScriptRule = DelegateScript['rules'][number];
export type ScriptReply = v.InferOutput<typeof ScriptReplySchema>;

/** Where the positions of `replies:` sequences live, so a resumed run continues them. */
export const ScriptSequenceStateSchema = v.object({
  version: v.literal(1),
  /** Absolute path of the script these positions belong to. */
  script: v.string(),
  /** `<rule index>:<match>` → how many calls that rule has answered. Editing a rule's pattern restarts its sequence. */
  positions: v.record(v.string(), v.pipe(v.number(), v.integer(), v.minValue(0))),
});

export type ScriptSequenceState = v.InferOutput<typeof ScriptSequenceStateSchema>;
