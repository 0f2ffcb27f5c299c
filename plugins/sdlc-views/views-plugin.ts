import { definePlugin } from '../../core/index.ts';
import { handoffCommand } from './handoff/handoff-command.ts';
import { SessionHandoffSchema } from './handoff/session-handoff-schema.ts';
import { specBacklogGate } from './specs/spec-backlog-gate.ts';
import { specsCommand } from './specs/specs-command.ts';
import { profileValidateCommand } from './profile-validate/profile-validate-command.ts';
import { auditCommand } from './audit/audit-command.ts';
import { reportCommand } from './report/report-command.ts';
import { statusCommand } from './status/status-command.ts';

/**
 * The read side of the SDLC workflow: views over what `sluice next` writes, the spec backlog and
 * the session handoff. Only definitions load here; each command imports its work when it runs.
 */
export const sdlcViewsPlugin = definePlugin({
  name: 'sluice:sdlc-views',
  setup(ctx) {
    ctx.registerCommand(statusCommand);
    ctx.registerCommand(auditCommand);
    ctx.registerCommand(reportCommand);
    ctx.registerCommand(specsCommand);
    ctx.registerCommand(handoffCommand);
    ctx.registerCommand(profileValidateCommand);
    ctx.registerGate(specBacklogGate);
    ctx.registerSchema('session-handoff-v1', SessionHandoffSchema, '.sdlc/artifacts/build/session-handoff.json: Build-loop continuity between agent sessions');
    ctx.registerWorkflow({
      name: 'sdlc-views',
      description: 'SDLC read side: status, audit, phase reports, spec backlog, session handoff, profile validation',
      commands: ['status', 'audit', 'report', 'specs', 'handoff', 'profile validate'],
      schemas: ['session-handoff-v1'],
    });
  },
});
