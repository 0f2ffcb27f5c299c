import type { DelegateRequest, DelegateSettings } from '../../core/index.ts';
import { extraArgs, modelOf } from '../cli-process/index.ts';

/** Flags that widen codex's sandbox or drop approvals: never in analysis runs. */
export const CODEX_WRITE_FLAGS = ['--sandbox', '-s', '--full-auto', '--dangerously-bypass-approvals-and-sandbox', '--yolo', '--add-dir'] as const;

/**
 * argv for `codex exec - --json` (the prompt goes on stdin): a read-only sandbox for analysis,
 * workspace-write for write runs. `--skip-git-repo-check` because runs may happen outside a repo.
 */
export function codexArgs(request: DelegateRequest, settings: DelegateSettings): string[] {
  const args = ['exec', '-', '--json', '--sandbox', request.mode === 'write' ? 'workspace-write' : 'read-only', '--skip-git-repo-check'];
  const model = modelOf(request, settings);
  if (model) args.push('--model', model);
  // Extra writable roots only make sense where writing is allowed at all.
  if (request.mode === 'write') for (const dir of request.addDirs ?? []) args.push('--add-dir', dir);
  args.push(...extraArgs('codex', settings, request.mode, CODEX_WRITE_FLAGS));
  return args;
}
