import { join } from 'pathe';
import { definePlugin } from '../../core/index.ts';
import { historyJournalSpec } from './state/history-journal.ts';
import { gateCommand } from './commands/gate-command.ts';
import { initCommand } from './commands/init-command.ts';
import { nextCommand } from './commands/next-command.ts';
import { reenterCommand } from './commands/reenter-command.ts';
import { refreezeCommand } from './commands/refreeze-command.ts';
import { skipCommand } from './commands/skip-command.ts';
import { waiversAcceptCommand } from './commands/waivers-accept-command.ts';
import { ComplianceFileSchema } from './profile/compliance-schema.ts';
import { ProfileSchema } from './profile/profile-schema.ts';
import { PhaseRegistrySchema } from './registry/registry-schema.ts';
import { sdlcHooks } from './sdlc-hooks.ts';
import { sdlcErrors } from './sdlc-errors.ts';
import { HistoryEntrySchema } from './state/history-schema.ts';
import { SdlcStateSchema } from './state/state-schema.ts';

/**
 * The SDLC phase workflow: init, gate, next, skip, reenter, refreeze, waivers accept over `.sdlc/state.yaml`. Loads early
 * (`pre`) so its hooks are declared before any plugin hooks into them. Command modules import
 * their implementation lazily, so loading this plugin costs only the definitions and schemas.
 */
export const sdlcPlugin = definePlugin({
  name: 'sluice:sdlc',
  enforce: 'pre',
  setup(ctx) {
    ctx.registerErrorCodes(sdlcErrors);
    ctx.declareHooks(sdlcHooks);
    // `sluice anchor` anchors the SDLC history's journal too.
    ctx.hook('records:journals', async (e) => {
      const spec = historyJournalSpec(ctx.kernel, join(e.root, '.sdlc'), join(e.root, '.sdlc', 'state.yaml'));
      if (await ctx.host.stat(spec.path)) e.add(spec);
    });
    ctx.registerSchema('sdlc-state', SdlcStateSchema, '.sdlc/state.yaml: phase progress, gate results and append-only history');
    ctx.registerSchema('sdlc-history-entry', HistoryEntrySchema, 'one entry of history[] in .sdlc/state.yaml');
    ctx.registerSchema('phase-registry', PhaseRegistrySchema, 'phase-registry.yaml: phases, order, exit gates, artifacts');
    ctx.registerSchema('profile', ProfileSchema, 'profile.yaml: company profile (profiles/_schema.yaml)');
    ctx.registerSchema('compliance', ComplianceFileSchema, 'compliance/<framework>-gates.yaml: framework checks by phase');
    for (const command of [initCommand, gateCommand, nextCommand, skipCommand, reenterCommand, refreezeCommand, waiversAcceptCommand])
      ctx.registerCommand(command);
    ctx.registerWorkflow({
      name: 'sdlc',
      description: 'SDLC phases 0 → close with gates G1–G7, manual approval, skip and re-entry',
      commands: ['init', 'gate', 'next', 'skip', 'reenter', 'refreeze', 'waivers accept'],
      schemas: ['sdlc-state', 'sdlc-history-entry', 'phase-registry', 'profile', 'compliance'],
    });
  },
});
