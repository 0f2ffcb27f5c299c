import type { DelegateRequest } from '../../core/index.ts';

/** A delegate request as the delegate tests send it: read-only (analysis) unless `extra` says otherwise. */
export const delegateRequest = (cwd: string, prompt: string, extra: Partial<DelegateRequest> = {}): DelegateRequest => ({
  prompt,
  mode: 'analysis',
  cwd,
  ...extra,
});

/**
 * A request to a run that should answer: room for a loaded machine (120 s), so only the tests of
 * timeouts set a short clock (through `extra.timeoutMs`).
 */
export const answeringRequest = (cwd: string, prompt: string, extra: Partial<DelegateRequest> = {}): DelegateRequest =>
  delegateRequest(cwd, prompt, { timeoutMs: 120_000, ...extra });
