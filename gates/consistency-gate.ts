import * as v from 'valibot';
import { defineGate, gatePlugin, type GateResult, type Host } from '../core/index.ts';
import { readArtifactMetrics } from './consistency/artifact-metrics.ts';
import { readFrozenLayers } from './consistency/frozen-layers.ts';
import { projectFile, readTextFile } from './shared/project-file.ts';

const MetricValueSchema = v.union([v.string(), v.number(), v.boolean(), v.array(v.union([v.string(), v.number()]))]);
export type MetricValue = v.InferOutput<typeof MetricValueSchema>;

const MetricReadingSchema = v.object({ value: MetricValueSchema, source: v.string() });
export type MetricReading = v.InferOutput<typeof MetricReadingSchema>;

export const ConsistencyInputSchema = v.object({
  projectRoot: v.string(),
  /** Values locked at earlier phase exits (latest lock per key), with the phase that locked them. */
  locked: v.record(v.string(), v.object({ ...MetricReadingSchema.entries, phase: v.string() })),
  /** Current values from the frozen profile (quality thresholds, compliance frameworks). */
  profileMetrics: v.record(v.string(), MetricReadingSchema),
  /** Artifact folders of the phases reached so far, in phase order; their top-level markdown is read. */
  artifactDirs: v.array(v.string()),
  /** Frozen layers of earlier phases (`.sdlc/context/layers/phase<ID>-*.md`) whose `## Locked Metrics` also lock values. */
  layers: v.optional(v.object({ dir: v.string(), priorPhases: v.array(v.string()) })),
});
export type ConsistencyInput = v.InferOutput<typeof ConsistencyInputSchema>;

/** What G5 hands `sluice next` (on its `metrics to lock` row): the values this phase's exit locks. */
export const ConsistencyDataSchema = v.object({
  metrics: v.pipe(v.record(v.string(), MetricReadingSchema), v.description('Metric key → current value and where it is stated.')),
});
export type ConsistencyData = v.InferOutput<typeof ConsistencyDataSchema>;

export const G5 = 'G5-consistency';

const same = (a: MetricValue, b: MetricValue) => JSON.stringify(a) === JSON.stringify(b);
const show = (v: MetricValue) => (Array.isArray(v) ? `[${v.join(', ')}]` : String(v));

/** Current artifact metrics (first statement wins) and the places a later artifact contradicts it. */
async function readArtifacts(host: Host, input: ConsistencyInput) {
  const current: Record<string, MetricReading> = {};
  const conflicts: { key: string; first: MetricReading; other: MetricReading }[] = [];
  for (const dirRel of input.artifactDirs) {
    const { full, info } = await projectFile(host, input.projectRoot, dirRel);
    if (info?.kind !== 'dir') continue;
    const files = (await host.listDir(full))
      .filter((e) => e.kind === 'file' && /\.md$/i.test(e.name))
      .map((e) => e.name)
      .sort();
    for (const name of files) {
      const read = await readTextFile(host, `${full}/${name}`);
      if (!('text' in read)) continue;
      for (const m of readArtifactMetrics(read.text)) {
        const reading = { value: m.value, source: `${dirRel.replace(/^\.sdlc\/artifacts\//, '')}/${name}:${m.line}` };
        const first = current[m.key];
        if (!first) current[m.key] = reading;
        else if (!same(first.value, reading.value)) conflicts.push({ key: m.key, first, other: reading });
      }
    }
  }
  return { current, conflicts };
}

/**
 * G5: the metrics locked when earlier phases were left (quality thresholds, compliance frameworks,
 * budget/timeline lines of the artifacts) against their values now; drift is reported with both
 * values. SHOULD. Its `metrics to lock` row carries the current values as `data.metrics`, which
 * `sluice next` locks at this exit.
 */
export const consistencyGate = defineGate({
  type: 'consistency',
  id: G5,
  description: 'locked metrics of earlier phase exits have not drifted',
  input: ConsistencyInputSchema,
  data: ConsistencyDataSchema,
  async check(input, { host }) {
    const artifacts = await readArtifacts(host, input);
    const current: Record<string, MetricReading> = { ...input.profileMetrics, ...artifacts.current };
    const rows: GateResult<ConsistencyData>[] = [];
    const lockedKeys = Object.keys(input.locked).sort();
    let unchanged = 0;
    for (const key of lockedKeys) {
      const was = input.locked[key];
      const now = current[key];
      if (now && same(was.value, now.value)) {
        unchanged++;
        continue;
      }
      rows.push({
        gate: G5,
        id: `G5:${key}`,
        check: key,
        passed: false,
        message: `${key} drifted: ${show(was.value)} when phase ${was.phase} was left (${was.source}), now ${now ? `${show(now.value)} (${now.source})` : 'no longer stated'}`,
        severity: 'SHOULD',
        locked: was.value,
        current: now?.value ?? null,
      });
    }
    for (const c of artifacts.conflicts) {
      rows.push({
        gate: G5,
        id: `G5:${c.key}:conflict`,
        check: c.key,
        passed: false,
        message: `${c.key} is ${show(c.first.value)} in ${c.first.source} but ${show(c.other.value)} in ${c.other.source}`,
        severity: 'SHOULD',
      });
    }
    if (lockedKeys.length === 0)
      rows.push({
        gate: G5,
        id: 'G5:locked',
        check: 'locked metrics',
        passed: true,
        message: 'nothing locked yet: the first phase exit locks the current values',
        severity: 'INFO',
      });
    else if (unchanged > 0)
      rows.push({
        gate: G5,
        id: 'G5:locked',
        check: 'locked metrics',
        passed: true,
        message: `${unchanged} locked metric${unchanged > 1 ? 's' : ''} unchanged`,
        severity: 'SHOULD',
      });
    rows.push(...(await layerRows(host, input, current)));
    const count = Object.keys(current).length;
    rows.push({
      gate: G5,
      id: 'G5:metrics',
      check: 'metrics to lock',
      passed: true,
      message: `${count} metric${count === 1 ? '' : 's'} will be locked when this phase is left`,
      severity: 'INFO',
      data: { metrics: current },
    });
    return rows;
  },
});

/**
 * What the frozen layers lock: a metric the artifacts state differently is drift (SHOULD, both values
 * and the decision log named); a person confirms the rest, as the reference asks (passed null).
 */
async function layerRows(host: Host, input: ConsistencyInput, current: Record<string, MetricReading>): Promise<GateResult<ConsistencyData>[]> {
  if (!input.layers) return [];
  const layers = (await readFrozenLayers(host, input.projectRoot, input.layers.dir, input.layers.priorPhases)).filter((l) => l.locks);
  if (layers.length === 0) return [];
  const rows: GateResult<ConsistencyData>[] = [];
  let compared = 0;
  for (const m of layers.flatMap((l) => l.metrics)) {
    const now = current[m.key];
    if (!now) continue;
    compared++;
    if (same(m.value, now.value)) continue;
    rows.push({
      gate: G5,
      id: `G5:layer:${m.key}`,
      check: m.name,
      passed: false,
      message: `${m.name} drifted: ${m.value} locked in ${m.source}, now ${show(now.value)} (${now.source}); record the change in the phase's decision-log.md`,
      severity: 'SHOULD',
      locked: m.value,
      current: now.value,
    });
  }
  const total = layers.reduce((n, l) => n + l.metrics.length, 0);
  rows.push({
    gate: G5,
    id: 'G5:frozen-layers',
    check: 'frozen layers',
    passed: null,
    message: `${layers.length} frozen layer${layers.length > 1 ? 's' : ''} (${layers.map((l) => l.file).join(', ')}) lock ${total} metric${total === 1 ? '' : 's'} and carried-forward constraints; ${compared} compared with the artifacts. A person confirms this phase keeps the rest, or the decision log records the change`,
    severity: 'SHOULD',
  });
  return rows;
}

export const consistencyGatePlugin = gatePlugin(consistencyGate);
