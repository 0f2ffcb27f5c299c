/** Claude Code's SessionStart hook output: `additionalContext` is added to the session's context. */
export interface ClaudeSessionStartPayload {
  hookSpecificOutput: { hookEventName: 'SessionStart'; additionalContext: string };
}

export function claudeSessionStartPayload(additionalContext: string): ClaudeSessionStartPayload {
  return { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext } };
}
