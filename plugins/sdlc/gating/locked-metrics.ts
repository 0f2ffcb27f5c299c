import { compareText } from '../../../core/index.ts';
import type { MetricReading } from '../../../gates/index.ts';
import type { Profile } from '../profile/profile-schema.ts';
import type { SdlcState } from '../state/state-schema.ts';

/** Profile values G5 locks at each phase exit: the quality thresholds and compliance settings. */
export function profileMetrics(profile: Profile): Record<string, MetricReading> {
  const out: Record<string, MetricReading> = {};
  const q = profile.quality as Record<string, unknown>;
  for (const key of [
    'coverage_minimum',
    'coverage_critical',
    'max_file_lines',
    'max_function_lines',
    'require_tdd',
    'require_code_review',
    'require_security_review',
  ]) {
    const value = q[key];
    if (typeof value === 'number' || typeof value === 'boolean') out[`quality.${key}`] = { value, source: `profile.yaml quality.${key}` };
  }
  const frameworks = profile.compliance?.frameworks;
  if (frameworks) out['compliance.frameworks'] = { value: [...frameworks].sort(), source: 'profile.yaml compliance.frameworks' };
  if (profile.compliance?.change_approval)
    out['compliance.change_approval'] = { value: profile.compliance.change_approval, source: 'profile.yaml compliance.change_approval' };
  return out;
}

/**
 * The latest locked value of each metric across the phases left so far (by completion time, so a
 * re-entered and re-completed phase's newer lock wins).
 */
export function lockedMetrics(state: SdlcState): Record<string, MetricReading & { phase: string }> {
  const locks = Object.entries(state.phases)
    .filter(([, p]) => p.locked_metrics && p.completed_at)
    .sort(([, a], [, b]) => compareText(String(a.completed_at), String(b.completed_at)));
  const out: Record<string, MetricReading & { phase: string }> = {};
  for (const [id, p] of locks) for (const [key, m] of Object.entries(p.locked_metrics ?? {})) out[key] = { value: m.value, source: m.source, phase: id };
  return out;
}
