/** One spec file as read from `specs/*.md`. Values are as written; nothing is normalised away. */
export interface SpecFile {
  /** Path relative to the repo, e.g. `specs/0007-auth.md`. */
  file: string;
  spec?: string;
  name?: string;
  /** Raw `status` as text (`undefined` when the key is absent). */
  status?: string;
  /** Raw `risk` as text. */
  risk?: string;
  /** Raw `channel` as text (the delivery channel a spec belongs to; `—` means channel-agnostic). */
  channel?: string;
  /** Set when the frontmatter cannot be read; such a spec is counted as `invalid`. */
  error?: string;
  /** A markdown file beside the specs that is not one (no frontmatter, not named `NNNN-…`): a README, an index. */
  notSpec?: true;
}

/** A SpecFile with only the fields that have a value (absent stays absent, never `undefined` or null). */
export function specFile(file: string, fields: Partial<Record<'spec' | 'name' | 'status' | 'risk' | 'channel' | 'error', string | null>>): SpecFile {
  const out: SpecFile = { file };
  for (const key of ['spec', 'name', 'status', 'risk', 'channel', 'error'] as const) {
    const value = fields[key];
    if (value !== undefined && value !== null) out[key] = value;
  }
  return out;
}

export const SPEC_STATUSES = ['draft', 'ready', 'in-flight', 'merged'] as const;
export const SPEC_RISKS = ['HIGH', 'MEDIUM', 'LOW'] as const;
export type SpecStatus = (typeof SPEC_STATUSES)[number];
export type SpecRisk = (typeof SPEC_RISKS)[number];

/** `sluice specs --json`: the backlog derived from the spec files themselves. */
export interface SpecBacklog {
  /** Absolute path of the scanned repo. */
  repo: string;
  total: number;
  /** Counts of the four known statuses (always all four keys). */
  status: Record<SpecStatus, number>;
  /** Status values that are not one of the four, with their counts; `(missing)` when absent. */
  unknownStatus: Record<string, number>;
  risk: Record<SpecRisk, number>;
  unknownRisk: Record<string, number>;
  /**
   * Specs by channel, as the reference's track_specs counts them: no (or an empty) `channel` is
   * `unassigned`, `—` is `channel-agnostic`; keys sorted.
   */
  byChannel: Record<string, number>;
  inFlight: { file: string; spec?: string; name?: string; risk?: string }[];
  invalid: { file: string; message: string }[];
  /** Markdown files in specs/ that are not specs (listed apart, not counted). */
  otherFiles: string[];
  /** False when the repo has no specs/ folder: an empty backlog, not an error. */
  specsFolder: boolean;
  wipCap?: { cap: number; inFlight: number; breached: boolean };
}
