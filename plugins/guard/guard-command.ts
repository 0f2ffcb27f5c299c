import { defineCommand } from '../../core/index.ts';

/** Listed in help; the bin answers a bare `sluice guard` itself before loading the kernel (plugins/cli/main.ts). */
export const guardCommand = defineCommand({
  name: 'guard',
  summary: "Claude Code PreToolUse hook: reads the tool call on stdin and denies or asks about edits of sluice's records",
  examples: [
    'sluice hooks install claude   # runs `sluice guard` before every tool call',
    'echo \'{"tool_name":"Write","tool_input":{"file_path":".sdlc/state.yaml"}}\' | sluice guard',
  ],
  async run() {
    const { guardMain } = await import('./guard-main.ts');
    return { exitCode: await guardMain(), data: null };
  },
});
