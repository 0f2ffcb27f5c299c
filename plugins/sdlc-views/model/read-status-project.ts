import type * as v from 'valibot';
import { parseDataText, readDataText, SluiceError, validateData, type ErrorCode, type Kernel } from '../../../core/index.ts';
import {
  bundledRegistryPath,
  readableState,
  sdlcPaths,
  createPhaseModel,
  type PhaseModel,
  PhaseRegistrySchema,
  safeYamlCodec,
  SdlcStateReadSchema,
  type SdlcState,
  parseCacheDir,
  parseWithCache,
  historyJournalSpec,
  judgeHistory,
  cachedRecords,
  readStateRecent,
  RecentHistory,
  foldHistory,
  type HistoryRecords,
} from '../../sdlc/index.ts';
import { STATUS_HISTORY_LIMIT } from './status-view.ts';

export interface StatusProject {
  root: string;
  /** The state; for a long history that agrees with its journal, read with `history: []` (see `history`). */
  state: SdlcState;
  /** How long the history is and its last entries: all the dashboard shows of it. */
  history: RecentHistory;
  model: PhaseModel;
  records: HistoryRecords;
}

/**
 * One SDLC YAML file the way the workflow reads it (size cap, UTF-8, the `__proto__`- and
 * duplicate-refusing codec, the schema), with the parse memoised for the same bytes; a schema violation is
 * reported under `code` as `readSdlcFile` does.
 */
async function readCachedYaml<S extends v.GenericSchema>(
  kernel: Kernel,
  path: string,
  schema: S,
  code: ErrorCode,
  cacheDir: string | undefined,
): Promise<{ text: string; value: v.InferOutput<S> }> {
  const display = kernel.display(path);
  const text = await readDataText(kernel.host, path, { display });
  const { value } = await parseWithCache(kernel.host, cacheDir, code, path, text, (t) => parseDataText(t, safeYamlCodec, display));
  return { text, value: validateData(schema, value, display, code) };
}

/**
 * What `sluice status` needs and no more: the state and the frozen registry, checked exactly as the
 * workflow checks them, without the profile and compliance files the dashboard never shows.
 */
export async function readStatusProject(kernel: Kernel): Promise<StatusProject> {
  const paths = sdlcPaths(kernel.projectRoot);
  const [stateInfo, registryInfo] = await Promise.all([kernel.host.stat(paths.state), kernel.host.stat(paths.registry)]);
  if (!stateInfo)
    throw new SluiceError('PROJECT_MISSING', {
      file: kernel.display(paths.state),
      message: `no SDLC project in ${kernel.projectRoot} (.sdlc/state.yaml does not exist)`,
    });
  const registryPath = registryInfo ? paths.registry : bundledRegistryPath(kernel.host);
  const cacheDir = parseCacheDir(kernel.host);
  // The journal before state.yaml (written first): a concurrent write reads as history not journaled yet.
  const journal = await kernel.store.loadJournal(historyJournalSpec(kernel, paths.dir, paths.state));
  const stateDisplay = kernel.display(paths.state);
  const [stateText, { value: registry }] = await Promise.all([
    readDataText(kernel.host, paths.state, { display: stateDisplay, maxBytes: kernel.config.stateMaxBytes, limitKey: 'stateMaxBytes' }),
    readCachedYaml(kernel, registryPath, PhaseRegistrySchema, 'REGISTRY_INVALID', cacheDir),
  ]);
  // A long state that is the journal's cache needs no entry compared or read: its entries are counted
  // and only the last ones the dashboard shows are parsed.
  let history = new RecentHistory(STATUS_HISTORY_LIMIT);
  let records = cachedRecords(journal, stateText);
  let read = records ? readStateRecent(stateText, SdlcStateReadSchema, history) : undefined;
  if (!read || !records) {
    const { value } = await parseWithCache(kernel.host, cacheDir, 'STATE_INVALID', paths.state, stateText, (t) =>
      parseDataText(t, safeYamlCodec, stateDisplay),
    );
    read = validateData(SdlcStateReadSchema, value, stateDisplay, 'STATE_INVALID');
    // A history that contradicts its journal (or this machine's anchor) is STATE_TAMPERED here as in gate and next.
    records = judgeHistory(kernel.host, journal, stateText, read, stateDisplay);
    history = foldHistory(read.history, new RecentHistory(STATUS_HISTORY_LIMIT));
  }
  const model = createPhaseModel(registry, kernel.display(registryPath));
  const state = readableState(read, model, stateDisplay);
  return { root: kernel.projectRoot, state, history, model, records };
}
