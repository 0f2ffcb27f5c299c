import type { DelegateMode, Host } from '../../core/index.ts';
import { matchPattern, PatternTimeoutError } from './linear-regex.ts';
import type { DelegateScript, ScriptReply } from './script-schema.ts';

/** The reply chosen for one prompt, with its captures, before substitution. */
export interface ScriptMatch {
  /** Index of the matching rule, or -1 for the default reply. */
  ruleIndex: number;
  /** Key under which a `replies:` sequence position is stored; undefined for single replies. */
  sequenceKey?: string;
  /** The rule's replies (one element for `reply:`). */
  replies: readonly ScriptReply[];
  captures: Captures;
}

export interface Captures {
  groups: readonly (string | undefined)[];
  named: Readonly<Record<string, string | undefined>>;
}

/** A rule whose pattern ran past its time limit (only possible for patterns outside RE2 syntax). */
export class RuleTimeoutError extends Error {
  constructor(
    readonly ruleIndex: number,
    cause: PatternTimeoutError,
  ) {
    super(`rules[${ruleIndex}].match ${cause.message}`);
  }
}

/** First rule whose pattern matches the prompt (and whose mode, if any, is the run's mode); see linear-regex.ts for the time bound. */
export async function matchScript(host: Host, script: DelegateScript, prompt: string, mode: DelegateMode): Promise<ScriptMatch | undefined> {
  for (const [index, rule] of script.rules.entries()) {
    if (rule.mode !== undefined && rule.mode !== mode) continue;
    let m;
    try {
      m = await matchPattern(host, rule.match, rule.flags ?? 's', prompt);
    } catch (error) {
      if (error instanceof PatternTimeoutError) throw new RuleTimeoutError(index, error);
      throw error;
    }
    if (!m) continue;
    const captures: Captures = { groups: m.groups, named: m.named };
    if (rule.replies) return { ruleIndex: index, sequenceKey: `${index}:${rule.match}`, replies: rule.replies, captures };
    return { ruleIndex: index, replies: [rule.reply!], captures };
  }
  if (script.default === undefined) return undefined;
  return { ruleIndex: -1, replies: [script.default], captures: { groups: [prompt], named: {} } };
}

/** The reply for the n-th call of a sequence: one per call in order, the last repeating. */
export const replyAt = (replies: readonly ScriptReply[], position: number): ScriptReply => replies[Math.min(position, replies.length - 1)];

/** `$1`..`$9` and `$<name>` become capture groups (missing ones become empty); `$$` is a literal `$`. */
export function substitute(text: string, captures: Captures): string {
  return text.replace(/\$(?:(\$)|([1-9])|<([A-Za-z_$][\w$]*)>)/g, (_all, dollar: string | undefined, digit: string | undefined, name: string | undefined) => {
    if (dollar) return '$';
    if (digit) return captures.groups[Number(digit)] ?? '';
    return captures.named[name!] ?? '';
  });
}

/** Substitution applied to every string inside a JSON value (keys stay as written). */
export function substituteJson(value: unknown, captures: Captures): unknown {
  if (typeof value === 'string') return substitute(value, captures);
  if (Array.isArray(value)) return value.map((item) => substituteJson(item, captures));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, item]) => [k, substituteJson(item, captures)]));
  }
  return value;
}
