/**
 * A state.yaml `history:` block of `n` plausible entries another tool could have written: advances
 * 0 → 1 with their gate summary, re-entries 1 → 0 with a reason. The scale test and the sdlc bench
 * measure the same file.
 */
export function longHistory(n: number, confirmedBy: string): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const at = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString().replace('.000Z', 'Z');
    if (i % 2 === 0)
      lines.push(`- from: '0'\n  to: '1'\n  at: '${at}'\n  gate_results:\n    passed: 12\n    failed: 0\n    manual: 2\n  confirmed_by: ${confirmedBy}`);
    else lines.push(`- from: '1'\n  to: '0'\n  at: '${at}'\n  reentry: true\n  justification: requirements changed again (round ${i})`);
  }
  return lines.join('\n');
}
