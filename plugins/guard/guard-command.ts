import * as v from 'valibot';
import { commandOutput, defineCommand } from '../../core/index.ts';

/** Listed in help; the bin answers a bare `sluice guard` itself before loading the kernel (plugins/cli/main.ts). */
export const guardCommand = defineCommand({
  name: 'guard',
  summary: "Claude Code PreToolUse hook: reads the tool call on stdin and denies or asks about edits of sluice's records",
  examples: [
    'sluice hooks install claude   # runs `sluice guard` before every tool call',
    'echo \'{"tool_name":"Write","tool_input":{"file_path":".sdlc/state.yaml"}}\' | sluice guard',
  ],
  output: commandOutput({ verdict: v.picklist(['allow', 'ask', 'deny']), reason: v.optional(v.string()) }),
  async run(_input, { io }) {
    const { guardMain, judgeStdin } = await import('./guard-main.ts');
    // Claude Code reads the hook answer; under --json the same decision is sluice's document instead.
    if (io.json) return { exitCode: 0, data: await judgeStdin() };
    return { exitCode: await guardMain(), data: null };
  },
});
