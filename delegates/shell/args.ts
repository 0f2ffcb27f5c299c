import type { DelegateRequest, DelegateSettings } from '../../core/index.ts';
import { extraArgs, modelOf } from '../cli-process/index.ts';

/** argv for a configured command: `args`, then `writeArgs` or `analysisArgs` for the run's mode. */
export function shellArgs(request: DelegateRequest, settings: DelegateSettings): string[] {
  return extraArgs('shell', settings, request.mode, []);
}

/** What the command learns about the run besides the prompt on stdin. */
export function shellEnv(request: DelegateRequest, settings: DelegateSettings): Record<string, string> {
  const model = modelOf(request, settings);
  return { SLUICE_DELEGATE_MODE: request.mode, ...(model ? { SLUICE_DELEGATE_MODEL: model } : {}) };
}
