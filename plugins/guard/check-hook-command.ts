import { join } from 'node:path';
import { SluiceError, type Host } from '../../core/index.ts';
import { HOOK_TIMEOUT_SECONDS } from './claude-settings.ts';

/** A shell word for a path: Claude Code runs a hook's command line through the shell. */
export const shellQuote = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/**
 * Runs the guard hook as Claude Code will (`sh -c "COMMAND guard"`, the payload on stdin) with a call
 * it must deny: a Write to `.sdlc/state.yaml`. Anything but that answer (no such program, a sluice
 * that is not this one, a crash, silence) fails the install: a hook that does not answer as the
 * guard would let every call through.
 */
export async function checkHookCommand(host: Host, root: string, sluice: string): Promise<void> {
  const payload = {
    session_id: 'sluice-hooks-install-check',
    transcript_path: join(root, '.sluice', 'hooks-install-check.jsonl'),
    cwd: root,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Write',
    tool_input: { file_path: join(root, '.sdlc', 'state.yaml'), content: 'forged: true\n' },
  };
  let out = '';
  let err = '';
  const decoder = new TextDecoder();
  const command = `${sluice} guard`;
  const r = await host.spawn({
    command: 'sh',
    args: ['-c', command],
    cwd: root,
    input: JSON.stringify(payload),
    timeoutMs: HOOK_TIMEOUT_SECONDS.guard * 1000,
    onStdout: (c) => (out += decoder.decode(c, { stream: true })),
    onStderr: (c) => (err += decoder.decode(c, { stream: true })),
  });
  let decision: unknown;
  try {
    decision = (JSON.parse(out) as { hookSpecificOutput?: { permissionDecision?: unknown } }).hookSpecificOutput?.permissionDecision;
  } catch {
    decision = undefined;
  }
  if (r.exitCode === 0 && decision === 'deny') return;
  const said = (err.trim().split('\n').at(-1) ?? '').slice(0, 200);
  const why = r.spawnError
    ? `cannot start sh: ${r.spawnError}`
    : r.timedOut
      ? `it gave no answer within ${HOOK_TIMEOUT_SECONDS.guard} s`
      : r.exitCode !== 0
        ? `it exited with ${r.exitCode ?? r.signal}${said ? `: ${said}` : ''}`
        : `it did not deny a write to .sdlc/state.yaml (answered ${out.trim() === '' ? 'nothing' : JSON.stringify(out.trim().slice(0, 120))})`;
  throw new SluiceError('CLAUDE_HOOK_UNUSABLE', { field: '--command', message: `the hook command \`${command}\` does not work as sluice's guard: ${why}` });
}
