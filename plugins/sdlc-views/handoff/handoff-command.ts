import { defineCommand } from '../../../core/index.ts';
import { HandoffOutput } from '../view-outputs.ts';

/** `sluice handoff`: the Build loop's cross-session continuity file, summarised. */
export const handoffCommand = defineCommand({
  name: 'handoff',
  summary: 'validate .sdlc/artifacts/build/session-handoff.json and print what the next session needs',
  options: [{ flags: '--hook <agent>', description: 'print a SessionStart hook payload for the agent instead (never fails)', choices: ['claude'] }],
  examples: ['sluice handoff', 'sluice handoff --hook claude'],
  output: HandoffOutput,
  async run(input, ctx) {
    const { runHandoff } = await import('./run-handoff.ts');
    return runHandoff(input, ctx);
  },
});
