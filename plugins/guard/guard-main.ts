import { readFileSync, writeSync } from 'node:fs';
import { decideTool, guardEnv, type PreToolUsePayload } from './decide-tool.ts';
import type { Decision } from './decision.ts';

/**
 * `sluice guard`, Claude Code's PreToolUse hook: the payload on stdin, the decision on stdout as
 * the documented hookSpecificOutput. No objection prints nothing, so Claude Code's own permission
 * rules still apply (an "allow" would skip them). Always exits 0: a hook that fails is ignored by
 * Claude Code, so trouble is answered with "ask", never with silence.
 */
export function formatDecision(d: Decision): string {
  if (d.verdict === 'allow') return '';
  const output = {
    hookEventName: 'PreToolUse',
    permissionDecision: d.verdict,
    permissionDecisionReason: `sluice guard: ${d.reason ?? "this touches sluice's records"}`,
  };
  return `${JSON.stringify({ hookSpecificOutput: output })}\n`;
}

/** The decision for the payload on stdin (another hook event than PreToolUse: no objection). */
export async function judgeStdin(): Promise<Decision> {
  try {
    const payload = JSON.parse(readFileSync(0, 'utf8')) as PreToolUsePayload;
    if (payload === null || typeof payload !== 'object') throw new Error('the payload is not a JSON object');
    if (payload.hook_event_name !== undefined && payload.hook_event_name !== 'PreToolUse') return { verdict: 'allow' };
    return await decideTool(payload, guardEnv(payload, process.env, process.cwd()));
  } catch (e) {
    return { verdict: 'ask', reason: `the hook payload could not be judged (${e instanceof Error ? e.message : String(e)})` };
  }
}

export async function guardMain(): Promise<number> {
  const out = formatDecision(await judgeStdin());
  // Touching process.stdout builds its stream (a few ms): the answer, well under a pipe's buffer, is written
  // to the descriptor directly; an allowed call, the common case, has nothing to say.
  if (out !== '') writeSync(1, out);
  return 0;
}
