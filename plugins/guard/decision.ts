/** What the guard answers Claude Code for one tool call; `allow` means "no objection" (no output). */
export type Verdict = 'allow' | 'ask' | 'deny';

export interface Decision {
  verdict: Verdict;
  /** Why, shown to the person (ask) or the agent (deny). */
  reason?: string;
}

export const allow: Decision = { verdict: 'allow' };

const RANK: Record<Verdict, number> = { allow: 0, ask: 1, deny: 2 };

/** The stricter of two decisions (deny > ask > allow); the first reason of the strictest wins. */
export function stricter(a: Decision, b: Decision): Decision {
  return RANK[b.verdict] > RANK[a.verdict] ? b : a;
}
