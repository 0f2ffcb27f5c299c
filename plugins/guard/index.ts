/**
 * sluice:guard's public face: the plugin (`sluice guard`, `sluice hooks`), and its process entry
 * guardMain, Claude Code's PreToolUse hook, which runs alone (dist/guard.cjs) without the kernel.
 */
export { guardPlugin } from './guard-plugin.ts';
export { guardMain } from './guard-main.ts';
export { decideTool, guardEnv, type PreToolUsePayload, type GuardEnv } from './decide-tool.ts';
export { installSluiceHooks, removeSluiceHooks, GUARDED_TOOLS } from './claude-settings.ts';
export type { Decision, Verdict } from './decision.ts';
