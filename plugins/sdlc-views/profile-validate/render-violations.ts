import type { Style } from '../../../core/index.ts';
import type { ProfileValidation } from './yaml-violations.ts';

/** `profile.yaml:12:21 quality.coverage_minimum: Invalid type...`, grouped by file. */
export function renderViolations(r: ProfileValidation, s: Style): string {
  if (r.valid) return `${s.green('valid')}: ${r.checked.join(', ')}`;
  const lines = [s.red(`${r.profile}: ${r.violations.length} violation${r.violations.length === 1 ? '' : 's'}`)];
  for (const v of r.violations) {
    const at = v.line === undefined ? v.file : `${v.file}:${v.line}:${v.column ?? 1}`;
    lines.push(`  ${at}  ${s.bold(v.path || '(file)')}: ${v.message}`);
  }
  lines.push(s.dim(`checked: ${r.checked.join(', ')}`));
  return lines.join('\n');
}
