import { SluiceError, type DelegateMode, type DelegateRequest, type DelegateSettings } from '../../core/index.ts';

/**
 * Extra arguments from `sluice.config.yaml`: `args` for every run, `writeArgs` / `analysisArgs`
 * for one mode. Flags that grant write access are refused in analysis runs, so a config typo can
 * never let an analysis prompt edit files.
 */
export function extraArgs(backend: string, settings: DelegateSettings, mode: DelegateMode, writeFlags: readonly string[]): string[] {
  // Shapes were checked against the backend's settings schema before the run.
  const list = (field: 'args' | 'writeArgs' | 'analysisArgs') => (settings[field] as string[] | undefined) ?? [];
  const args = [...list('args'), ...list(mode === 'write' ? 'writeArgs' : 'analysisArgs')];
  if (mode === 'analysis') {
    const bad = args.find((a) => writeFlags.some((f) => a === f || a.startsWith(`${f}=`)));
    if (bad !== undefined) {
      throw new SluiceError('CONFIG_INVALID', {
        field: `delegates.${backend}.args`,
        message: `${bad} would let analysis runs edit files; put it under delegates.${backend}.writeArgs`,
      });
    }
  }
  return args;
}

export const modelOf = (request: DelegateRequest, settings: DelegateSettings): string | undefined => request.model ?? settings.model;
