import { isSluiceError, parseDataText, readDataText, SluiceError, validateData, type Kernel } from '../../../core/index.ts';
import { historyJournalSpec, historyKind, judgeHistory, type HistoryJournalBody } from './history-journal.ts';
import { phaseKey } from './phase-id.ts';
import { safeYamlCodec } from './safe-yaml-codec.ts';
import { sdlcStateInvariant } from './state-invariant.ts';
import { SdlcStateSchema, type SdlcState } from './state-schema.ts';

export interface JournaledUpdateOptions {
  purpose: string;
  /** The state to start from when state.yaml does not exist (init); `reset`: a re-initialisation replaces the history. */
  initial?: SdlcState;
  reset?: boolean;
  /** The state as the command read it (strictly validated) and its bytes: reused when state.yaml still holds them. */
  read?: { text: string | undefined; state: SdlcState };
}

/**
 * The one write path of state.yaml (it replaced `store.update` for the SDLC): through the kernel's
 * journaled store, under state.yaml's lock: the journal loaded and checked against its anchor, state.yaml
 * judged against the journal (judgeHistory), `fn` applied (pure), schema and invariant checked, one
 * journal entry appended (after an `adopt` entry for history another tool wrote), then state.yaml
 * written as its cache. Returning the same object writes nothing.
 */
export async function journaledStateUpdate(
  kernel: Kernel,
  paths: { dir: string; state: string },
  fn: (state: SdlcState) => SdlcState,
  o: JournaledUpdateOptions,
): Promise<{ before: SdlcState | undefined; after: SdlcState; written: boolean }> {
  const { host } = kernel;
  const shown = kernel.display(paths.state);
  const spec = { ...historyJournalSpec(kernel, paths.dir, paths.state), purpose: o.purpose };
  let before: SdlcState | undefined;
  let next: { state: SdlcState; text: string } | undefined;
  await kernel.store.append(
    spec,
    async (journal) => {
      const text = o.reset
        ? null
        : await readDataText(host, paths.state, { display: shown, maxBytes: kernel.config.stateMaxBytes, limitKey: 'stateMaxBytes' }).catch((error) => {
            if (isSluiceError(error, 'FILE_NOT_FOUND')) return null;
            throw error;
          });
      if (text === null && o.initial === undefined) throw new SluiceError('STATE_MISSING', { file: shown, message: 'file does not exist' });
      // The bytes the command already read and validated (a gate run's write): not parsed again.
      const reuse = text !== null && o.read?.text !== undefined && o.read.text === text;
      before =
        text === null ? undefined : reuse ? o.read!.state : validateData(SdlcStateSchema, parseDataText(text, safeYamlCodec, shown), shown, 'STATE_INVALID');
      const records = before && text !== null ? judgeHistory(host, journal, text, before, shown) : undefined;
      const start = before ?? validateData(SdlcStateSchema, o.initial!, shown, 'INVARIANT_VIOLATED');
      const changed = fn(start);
      if (changed === before && records?.provenance === 'journal') return undefined;
      const at = host.now().toISOString();
      const adopt: HistoryJournalBody[] = [];
      if (before && text !== null && records && records.provenance !== 'journal') {
        // History another tool wrote (or a project without journal): taken as it is, marked adopted.
        const foreign = before.history.slice(before.history.length - records.foreign);
        adopt.push({
          at,
          caller: null,
          row: 'adopt',
          adopted: true,
          history: foreign,
          ...(records.provenance === 'unjournaled' ? { reset: true as const } : {}),
          phase: phaseKey(before.current_phase),
          cache: host.sha256(text),
        });
      }
      if (changed === before) return { entries: adopt as unknown as Record<string, unknown>[], result: undefined };
      const after = validateData(SdlcStateSchema, changed, shown, 'INVARIANT_VIOLATED');
      const broken = before && sdlcStateInvariant(before, after);
      if (broken) throw new SluiceError('INVARIANT_VIOLATED', { file: shown, message: broken });
      const afterText = safeYamlCodec.stringify(after);
      const bytes = new TextEncoder().encode(afterText).byteLength;
      const cap = kernel.config.stateMaxBytes ?? 16 * 1024 * 1024;
      if (bytes > cap)
        throw new SluiceError('INVARIANT_VIOLATED', {
          file: shown,
          message: `update would make the file ${bytes} bytes, over the ${cap} byte limit sluice reads (config stateMaxBytes); nothing was written`,
        });
      const entries = adopt;
      const added = after.history.slice(before?.history.length ?? 0);
      const row = before === undefined || o.reset ? (journal ? 'reinit' : 'init') : added.length === 0 ? 'gate' : added.map(historyKind).join('+');
      entries.push({
        at,
        caller: null,
        row,
        history: o.reset || !before ? after.history : added,
        ...(o.reset || !before ? { reset: true as const } : {}),
        phase: phaseKey(after.current_phase),
        cache: host.sha256(afterText),
      });
      next = { state: after, text: afterText };
      return { entries: entries as unknown as Record<string, unknown>[], result: undefined };
    },
    async () => {
      if (next) await host.writeAtomic(paths.state, next.text);
    },
  );
  return next ? { before, after: next.state, written: true } : { before, after: before!, written: false };
}
