import type { Host } from '../../core/index.ts';
import { projectFile, readTextFile } from '../shared/project-file.ts';
import { ARTIFACT_METRIC_LABELS } from './artifact-metrics.ts';

/**
 * Frozen layers: `.sdlc/context/layers/phase<ID>-<name>.md`, the condensed record a phase leaves
 * behind (the reference plugin's format). Their `## Locked Metrics` table (`| Metric | Value |
 * Source Artifact |`) fixes values later phases must keep or change through the decision log.
 */
export interface LayerMetric {
  /** The artifact metric key when the name is one G5 reads from artifacts (`artifact.budget`), else `layer.<name>`. */
  key: string;
  name: string;
  value: string;
  /** Project-relative layer file and line. */
  source: string;
  sourceArtifact?: string;
}

export interface FrozenLayer {
  file: string;
  phase: string;
  /** Has `## Locked Metrics` or `## Constraints Carried Forward`: it locks something a person checks. */
  locks: boolean;
  metrics: LayerMetric[];
}

const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
const cells = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => c.trim().replace(/^(\*\*|__)|(\*\*|__)$/g, ''));

/** The rows of the table under `## Locked Metrics` (header and separator skipped, blank values ignored). */
export function readLockedMetrics(text: string, file: string): LayerMetric[] {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((l) => /^##\s+Locked Metrics\s*$/i.test(l.trim()));
  if (start < 0) return [];
  const out: LayerMetric[] = [];
  let header = true;
  for (let i = start + 1; i < lines.length && !/^#{1,2}\s/.test(lines[i]); i++) {
    if (!lines[i].trim().startsWith('|')) continue;
    if (header) {
      header = false;
      continue;
    }
    const [name = '', value = '', sourceArtifact] = cells(lines[i]);
    if (/^:?-+:?$/.test(name) || !name || !value) continue;
    const label = ARTIFACT_METRIC_LABELS.find((l) => l === name.toLowerCase());
    out.push({
      key: label ? `artifact.${label.replace(/[\s-]+/g, '_')}` : `layer.${slug(name)}`,
      name,
      value,
      source: `${file}:${i + 1}`,
      ...(sourceArtifact ? { sourceArtifact } : {}),
    });
  }
  return out;
}

/** The frozen layers of the given earlier phases (file name `phase<ID>…md`, ID as the registry spells it). */
export async function readFrozenLayers(host: Host, projectRoot: string, dirRel: string, priorPhases: readonly string[]): Promise<FrozenLayer[]> {
  const { full, info } = await projectFile(host, projectRoot, dirRel);
  if (info?.kind !== 'dir') return [];
  const names = (await host.listDir(full))
    .filter((e) => e.kind === 'file' && /^phase.*\.md$/i.test(e.name))
    .map((e) => e.name)
    .sort();
  const layers: FrozenLayer[] = [];
  for (const name of names) {
    const phase = name
      .replace(/\.md$/i, '')
      .split('-')[0]
      .replace(/^phase/i, '');
    if (!priorPhases.includes(phase)) continue;
    const read = await readTextFile(host, `${full}/${name}`);
    if (!('text' in read)) continue;
    const file = `${dirRel}/${name}`;
    const locks = /^##\s+(Locked Metrics|Constraints Carried Forward)\s*$/im.test(read.text);
    layers.push({ file, phase, locks, metrics: readLockedMetrics(read.text, file) });
  }
  return layers;
}
