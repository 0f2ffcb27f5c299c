import { defineCommand } from '../../../core/index.ts';
import { AuditOutput } from '../view-outputs.ts';

/** `sluice audit`: how well the gates work, from the recorded history. */
export const auditCommand = defineCommand({
  name: 'audit',
  summary: 'gate effectiveness from the history: pass/fail/manual rates, lenient and failing gates, overrides and skips',
  options: [{ flags: '--compare <state>', description: "compare gate rates with another project's .sdlc/state.yaml (or its folder)" }],
  examples: ['sluice audit', 'sluice audit --compare ../other-service', 'sluice audit --json'],
  output: AuditOutput,
  async run(input, ctx) {
    const { runAudit } = await import('./run-audit.ts');
    return runAudit(input, ctx);
  },
});
