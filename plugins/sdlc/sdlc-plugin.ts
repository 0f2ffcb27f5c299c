import { join } from 'pathe';
import { definePlugin } from '../../core/index.ts';
import { sdlcHooks } from './sdlc-hooks.ts';
import { sdlcErrors } from './sdlc-errors.ts';

/** Checking a phase runs the gate types; the Build loop's also runs the views' spec-backlog gate. */
const GATES = 'sluice:gates';
const VIEWS = 'sluice:sdlc-views';

/**
 * The SDLC phase workflow: init, gate, next, skip, reenter, refreeze, waivers accept over
 * `.sdlc/state.yaml`. This face holds only its codes, hooks and what it provides; every command and
 * schema module is imported when it is used. Every writing command checks the profile's extra gate
 * types (a `type: command` gate) against the registered ones, so each needs the gate plugins.
 */
export const sdlcPlugin = definePlugin({
  name: 'sluice:sdlc',
  enforce: 'pre',
  errorCodes: sdlcErrors,
  hooks: sdlcHooks,
  workflow: { description: 'SDLC phases 0 → close with gates G1–G7, manual approval, skip and re-entry' },
  commands: {
    init: { needs: [GATES], load: async () => (await import('./commands/init-command.ts')).initCommand },
    gate: { needs: [GATES, VIEWS], load: async () => (await import('./commands/gate-command.ts')).gateCommand },
    next: { needs: [GATES, VIEWS], load: async () => (await import('./commands/next-command.ts')).nextCommand },
    skip: { needs: [GATES, VIEWS], load: async () => (await import('./commands/skip-command.ts')).skipCommand },
    reenter: { needs: [GATES], load: async () => (await import('./commands/reenter-command.ts')).reenterCommand },
    refreeze: { needs: [GATES], load: async () => (await import('./commands/refreeze-command.ts')).refreezeCommand },
    'waivers accept': { needs: [GATES, VIEWS], load: async () => (await import('./commands/waivers-accept-command.ts')).waiversAcceptCommand },
  },
  schemas: {
    'sdlc-state': {
      description: '.sdlc/state.yaml: phase progress, gate results and append-only history',
      load: async () => (await import('./state/state-schema.ts')).SdlcStateSchema,
    },
    'sdlc-history-entry': {
      description: 'one entry of history[] in .sdlc/state.yaml',
      load: async () => (await import('./state/history-schema.ts')).HistoryEntrySchema,
    },
    'phase-registry': {
      description: 'phase-registry.yaml: phases, order, exit gates, artifacts',
      load: async () => (await import('./registry/registry-schema.ts')).PhaseRegistrySchema,
    },
    profile: {
      description: 'profile.yaml: company profile (profiles/_schema.yaml)',
      load: async () => (await import('./profile/profile-schema.ts')).ProfileSchema,
    },
    compliance: {
      description: 'compliance/<framework>-gates.yaml: framework checks by phase',
      load: async () => (await import('./profile/compliance-schema.ts')).ComplianceFileSchema,
    },
  },
  setup(ctx) {
    // `sluice anchor` anchors the SDLC history's journal too.
    ctx.hook('records:journals', async (e) => {
      const { historyJournalSpec } = await import('./state/history-journal.ts');
      const spec = historyJournalSpec(ctx.kernel, join(e.root, '.sdlc'), join(e.root, '.sdlc', 'state.yaml'));
      if (await ctx.host.stat(spec.path)) e.add(spec);
    });
  },
});
