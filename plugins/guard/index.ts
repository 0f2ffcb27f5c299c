export { guardPlugin } from './guard-plugin.ts';
export { decideTool, guardEnv, type PreToolUsePayload, type GuardEnv } from './decide-tool.ts';
export { installSluiceHooks, removeSluiceHooks, GUARDED_TOOLS } from './claude-settings.ts';
export type { Decision, Verdict } from './decision.ts';
