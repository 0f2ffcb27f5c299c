import type { Decision } from '../../plugins/guard/decision.ts';

/** A judgement's decision, or `ask` with the error's message: guard-main answers "ask" for a judgement that throws. */
export function decisionOrAsk(judge: () => Decision): Decision {
  try {
    return judge();
  } catch (e) {
    return { verdict: 'ask', reason: `threw ${(e as Error).message}` };
  }
}

/** The same for a judgement that may be asynchronous. */
export async function decisionOrAskAsync(judge: () => Decision | Promise<Decision>): Promise<Decision> {
  try {
    return await judge();
  } catch (e) {
    return { verdict: 'ask', reason: `threw ${(e as Error).message}` };
  }
}
