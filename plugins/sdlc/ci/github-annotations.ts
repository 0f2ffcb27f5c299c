import type { GateResult } from '../../../core/index.ts';

/**
 * GitHub Actions workflow commands (`::error file=…,line=…,title=…::message`) for gate rows. The
 * runner reads them from the step's output; values are escaped as the runner's toolkit does, so a
 * message or path can never end the command early or start another one.
 */
const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** Where a row points: its `file` (and `line`) when the gate says, relative to the repository (`prefix`). */
export function rowLocation(r: GateResult, prefix = ''): { file?: string; line?: number } {
  const file = typeof r.file === 'string' && r.file !== '' ? `${prefix}${r.file}` : undefined;
  const line = typeof r.line === 'number' && Number.isInteger(r.line) && r.line > 0 ? r.line : undefined;
  return { ...(file ? { file } : {}), ...(file && line ? { line } : {}) };
}

export function annotation(level: 'error' | 'warning', r: GateResult, phase: string, prefix = ''): string {
  const { file, line } = rowLocation(r, prefix);
  const props = [file ? `file=${escapeProperty(file)}` : '', line ? `line=${line}` : '', `title=${escapeProperty(`${r.gate} (phase ${phase})`)}`].filter(
    Boolean,
  );
  return `::${level} ${props.join(',')}::${escapeData(r.message)}`;
}

/** An error for every failing MUST row, a warning for every failing SHOULD row. */
export function gateAnnotations(results: readonly GateResult[], phase: string, prefix = ''): string[] {
  const lines: string[] = [];
  for (const r of results) {
    if (r.passed !== false) continue;
    if (r.severity === 'MUST') lines.push(annotation('error', r, phase, prefix));
    else if (r.severity === 'SHOULD') lines.push(annotation('warning', r, phase, prefix));
  }
  return lines;
}
