import { isSluiceError, SluiceError, type Kernel } from '../../../core/index.ts';
import type { BeforeAdvanceEvent } from '../sdlc-hooks.ts';

/**
 * Asks every `phase:beforeAdvance` handler to allow a transition. A reason string vetoes; a handler
 * that throws or times out vetoes too (fail closed). Either way ADVANCE_VETOED (exit 1) names the plugin.
 */
export async function askBeforeAdvance(kernel: Kernel, event: BeforeAdvanceEvent): Promise<void> {
  if (!kernel.hooks.hasHandlers('phase:beforeAdvance')) return;
  let vetoedBy: string | undefined;
  const stop = kernel.hooks.intercept({
    afterEach(e) {
      if (e.hook === 'phase:beforeAdvance' && vetoedBy === undefined && typeof e.result === 'string' && e.result !== '') vetoedBy = e.plugin;
    },
  });
  let reason: string | undefined;
  try {
    reason = await kernel.hooks.call('phase:beforeAdvance', event);
  } catch (error) {
    const plugin = isSluiceError(error) ? error.plugin : undefined;
    const detail = isSluiceError(error) ? error.detail : String(error);
    throw new SluiceError('ADVANCE_VETOED', {
      plugin,
      hook: 'phase:beforeAdvance',
      message: `plugin ${plugin ?? '(unknown)'} failed while asked to allow ${event.from} → ${event.to}, so the transition is refused: ${detail}`,
      cause: error,
    });
  } finally {
    stop();
  }
  if (reason !== undefined && reason !== null && reason !== '') {
    throw new SluiceError('ADVANCE_VETOED', {
      plugin: vetoedBy,
      hook: 'phase:beforeAdvance',
      message: `plugin ${vetoedBy ?? '(unknown)'} vetoed ${event.from} → ${event.to}: ${String(reason)}`,
    });
  }
}
