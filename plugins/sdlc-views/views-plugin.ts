import { definePlugin } from '../../core/index.ts';
import { specBacklogGate } from './specs/spec-backlog-gate.ts';

/** `profile validate` checks a profile's extra gate types against the registered ones. */
const GATES = 'sluice:gates';

/**
 * The read side of the SDLC workflow: views over what `sluice next` writes, the spec backlog and
 * the session handoff. Only this description loads with the face; each command module loads when it runs.
 */
export const sdlcViewsPlugin = definePlugin({
  name: 'sluice:sdlc-views',
  workflow: { description: 'SDLC read side: status, audit, phase reports, spec backlog, session handoff, profile validation' },
  commands: {
    status: { load: async () => (await import('./status/status-command.ts')).statusCommand },
    audit: { load: async () => (await import('./audit/audit-command.ts')).auditCommand },
    report: { load: async () => (await import('./report/report-command.ts')).reportCommand },
    specs: { load: async () => (await import('./specs/specs-command.ts')).specsCommand },
    handoff: { load: async () => (await import('./handoff/handoff-command.ts')).handoffCommand },
    'profile validate': {
      needs: [GATES],
      load: async () => (await import('./profile-validate/profile-validate-command.ts')).profileValidateCommand,
    },
  },
  gates: [specBacklogGate],
  schemas: {
    'session-handoff-v1': {
      description: '.sdlc/artifacts/build/session-handoff.json: Build-loop continuity between agent sessions',
      load: async () => (await import('./handoff/session-handoff-schema.ts')).SessionHandoffSchema,
    },
  },
});
