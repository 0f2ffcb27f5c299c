import * as v from 'valibot';
import { commandOutput, ErrorOutputSchema } from '../../core/index.ts';

/**
 * The --json documents of the SDLC views (status, audit, report) and of specs, handoff and profile
 * validate. `audit` is a wide report that grows with the history it reads: its known fields are typed,
 * further ones are allowed.
 */

const Count = v.pipe(v.number(), v.integer(), v.minValue(0));
const Text = v.nullable(v.string());
const PhaseStatus = v.picklist(['pending', 'active', 'completed', 'skipped']);
const ErrorObject = ErrorOutputSchema.entries.error;

export const StatusOutput = commandOutput({
  project: v.string(),
  profile: v.string(),
  projectType: Text,
  createdAt: v.string(),
  currentPhase: v.strictObject({ id: v.string(), name: v.string(), display: v.string(), status: PhaseStatus, terminal: v.boolean() }),
  progress: v.strictObject({ done: Count, total: Count, completed: Count, skipped: Count, percent: v.number() }),
  phases: v.array(
    v.strictObject({
      id: v.string(),
      name: v.string(),
      display: v.string(),
      slug: v.string(),
      status: PhaseStatus,
      current: v.boolean(),
      enteredAt: Text,
      completedAt: Text,
      artifacts: v.strictObject({ files: Count, required: Count, requiredPresent: Count }),
    }),
  ),
  history: v.array(
    v.strictObject({
      from: v.string(),
      to: v.string(),
      at: v.string(),
      kind: v.picklist(['advance', 'skip', 'reentry', 'signoff', 'refreeze']),
      gateSummary: v.nullable(v.strictObject({ passed: Count, failed: Count, manual: Count })),
      justification: Text,
      approver: Text,
      signedBy: Text,
    }),
  ),
  historyTotal: Count,
  records: v.strictObject({
    journal: v.pipe(
      v.picklist(['journal', 'foreign', 'unjournaled']),
      v.description(
        'journal: state.yaml agrees with .sdlc/journal.jsonl; foreign: it has history another tool wrote (adopted next write); unjournaled: no journal yet',
      ),
    ),
    entries: Count,
    anchor: v.pipe(v.picklist(['verified', 'unanchored']), v.description("verified against this machine's anchor, or unanchored here (`sluice anchor`)")),
    unanchoredThrough: v.optional(Count),
    foreign: v.pipe(Count, v.description('history entries not in the journal (yet)')),
  }),
});

export const AuditOutput = v.looseObject({
  ok: v.boolean(),
  project: v.string(),
  runs: Count,
  gates: v.array(
    v.looseObject({ gate: v.string(), results: Count, passed: Count, failed: Count, manual: Count, passRate: v.number(), phases: v.array(v.string()) }),
  ),
  alwaysPassing: v.array(v.strictObject({ gate: v.string(), results: Count, passRate: v.number() })),
  failingOverHalf: v.array(v.strictObject({ gate: v.string(), results: Count, failRate: v.number() })),
  approvals: v.array(v.looseObject({ phase: v.string(), gate: v.string(), at: v.string() })),
  skips: v.array(v.looseObject({ from: v.string(), to: v.string(), at: v.string() })),
  reentries: v.array(v.looseObject({ from: v.string(), to: v.string(), at: v.string() })),
  frozen: v.strictObject({ files: v.array(v.string()), modified: v.array(v.unknown()) }),
  forgedCache: v.pipe(
    v.array(v.strictObject({ file: v.string(), entry: v.string() })),
    v.description('Parse-cache entries holding a value their file does not parse to (gate and next would judge it); any makes the audit exit 1.'),
  ),
  signatures: v.looseObject({ required: v.boolean(), entries: v.array(v.looseObject({ index: Count, status: v.string() })), problems: Count }),
});

export const ReportOutput = commandOutput({
  files: v.pipe(v.array(v.string()), v.description('Every file written, the index first when there is one.')),
  pages: v.array(v.strictObject({ phase: v.string(), file: v.string() })),
  index: v.optional(v.string()),
});

export const SpecsOutput = commandOutput({
  repo: v.string(),
  total: Count,
  status: v.record(v.string(), Count),
  unknownStatus: v.record(v.string(), Count),
  risk: v.record(v.string(), Count),
  unknownRisk: v.record(v.string(), Count),
  byChannel: v.pipe(
    v.record(v.string(), Count),
    v.description('Specs by channel (no channel: unassigned; `—`: channel-agnostic), as the reference counts them.'),
  ),
  inFlight: v.array(v.strictObject({ file: v.string(), spec: v.optional(v.string()), name: v.optional(v.string()), risk: v.optional(v.string()) })),
  invalid: v.array(v.strictObject({ file: v.string(), message: v.string() })),
  otherFiles: v.array(v.string()),
  specsFolder: v.boolean(),
  wipCap: v.optional(v.strictObject({ cap: Count, inFlight: Count, breached: v.boolean() })),
  error: v.optional(ErrorObject),
});

export const HandoffOutput = v.union([
  commandOutput({
    session: v.nullable(v.number()),
    overallStatus: Text,
    lastUpdated: Text,
    sections: v.strictObject({ total: Count, complete: Count, inProgress: Count, blocked: Count }),
    line: v.string(),
    context: Text,
    firstAction: v.nullable(
      v.strictObject({ action: v.string(), section: v.optional(v.string()), priority: v.optional(v.string()), context: v.optional(v.string()) }),
    ),
    unresolvedBlockers: v.array(v.strictObject({ description: v.string(), section: v.optional(v.string()) })),
    warnings: v.optional(v.array(v.string())),
  }),
  // --hook claude: Claude Code's SessionStart payload, as the hook protocol defines it.
  v.looseObject({ ok: v.boolean(), hookSpecificOutput: v.looseObject({ hookEventName: v.string() }) }),
]);

export const ProfileValidateOutput = commandOutput({
  valid: v.boolean(),
  profile: v.string(),
  checked: v.array(v.string()),
  violations: v.array(
    v.strictObject({ file: v.string(), path: v.string(), line: v.optional(v.number()), column: v.optional(v.number()), message: v.string() }),
  ),
  error: v.optional(ErrorObject),
});
