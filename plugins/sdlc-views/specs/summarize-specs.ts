import { SPEC_RISKS, SPEC_STATUSES, type SpecBacklog, type SpecFile, type SpecRisk, type SpecStatus } from './spec-backlog-types.ts';

export const MISSING = '(missing)';

/** Statuses compare case-insensitively (`In-Flight` is in-flight); risks likewise (`high` is HIGH). */
function knownStatus(raw: string): SpecStatus | undefined {
  const s = raw.trim().toLowerCase();
  return (SPEC_STATUSES as readonly string[]).includes(s) ? (s as SpecStatus) : undefined;
}

function knownRisk(raw: string): SpecRisk | undefined {
  const r = raw.trim().toUpperCase();
  return (SPEC_RISKS as readonly string[]).includes(r) ? (r as SpecRisk) : undefined;
}

const bump = (map: Record<string, number>, key: string) => {
  map[key] = (map[key] ?? 0) + 1;
};

/** The reference's channel key: none or empty is `unassigned`, the dash `—` is `channel-agnostic`. */
export function channelKey(raw: string | undefined): string {
  if (raw === undefined || raw === '') return 'unassigned';
  return raw === '—' ? 'channel-agnostic' : raw;
}

/** Pure: counts by status and risk, the in-flight list, and the WIP-cap verdict. Invalid specs are listed, not counted. */
export function summarizeSpecs(repo: string, files: readonly SpecFile[] & { missing?: true }, wipCap?: number): SpecBacklog {
  const otherFiles = files.filter((f) => f.notSpec).map((f) => f.file);
  const specs = files.filter((f) => !f.notSpec);
  const status = Object.fromEntries(SPEC_STATUSES.map((s) => [s, 0])) as Record<SpecStatus, number>;
  const risk = Object.fromEntries(SPEC_RISKS.map((r) => [r, 0])) as Record<SpecRisk, number>;
  const unknownStatus: Record<string, number> = {};
  const unknownRisk: Record<string, number> = {};
  const channels: Record<string, number> = {};
  const inFlight: SpecBacklog['inFlight'] = [];
  const invalid: SpecBacklog['invalid'] = [];
  for (const spec of specs) {
    if (spec.error !== undefined) {
      invalid.push({ file: spec.file, message: spec.error });
      continue;
    }
    const s = spec.status === undefined ? undefined : knownStatus(spec.status);
    if (s) status[s]++;
    else bump(unknownStatus, spec.status ?? MISSING);
    const r = spec.risk === undefined ? undefined : knownRisk(spec.risk);
    if (r) risk[r]++;
    else bump(unknownRisk, spec.risk ?? MISSING);
    bump(channels, channelKey(spec.channel));
    if (s === 'in-flight') inFlight.push({ file: spec.file, spec: spec.spec, name: spec.name, risk: r ?? spec.risk });
  }
  const backlog: SpecBacklog = {
    repo,
    total: specs.length,
    status,
    unknownStatus,
    risk,
    unknownRisk,
    byChannel: Object.fromEntries(
      Object.keys(channels)
        .sort()
        .map((c) => [c, channels[c]]),
    ),
    inFlight,
    invalid,
    otherFiles,
    specsFolder: !files.missing,
  };
  if (wipCap !== undefined) backlog.wipCap = { cap: wipCap, inFlight: status['in-flight'], breached: status['in-flight'] > wipCap };
  return backlog;
}

/** `3 merged · 2 in-flight · 4 ready · 3 draft · 1 "blocked"`: known values in flow order, then the unknown ones. */
export function describeCounts(known: Record<string, number>, order: readonly string[], unknown: Record<string, number>): string {
  const parts = order.map((k) => `${known[k]} ${k}`);
  for (const [value, n] of Object.entries(unknown)) parts.push(`${n} ${value === MISSING ? MISSING : JSON.stringify(value)}`);
  return parts.join(' · ');
}

/** The one-line summary used by the gate row and the human output. */
export function backlogLine(b: SpecBacklog): string {
  const statusOrder = [...SPEC_STATUSES].reverse();
  const invalid = b.invalid.length ? `; ${b.invalid.length} invalid` : '';
  if (!b.specsFolder) return 'no specs/ folder: the backlog is empty';
  return `${b.total} spec${b.total === 1 ? '' : 's'}: ${describeCounts(b.status, statusOrder, b.unknownStatus)}; risk ${describeCounts(b.risk, SPEC_RISKS, b.unknownRisk)}${invalid}`;
}
