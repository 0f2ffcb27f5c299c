import * as v from 'valibot';
import { PhaseIdSchema } from '../state/phase-id.ts';
import { SeveritySchema } from '../state/gate-result-schema.ts';
import { PackPluginsSchema } from './pack-plugins.ts';

/**
 * A company profile (`profile.yaml`), mirroring the reference `profiles/_schema.yaml` field by field:
 * the same required keys, enums, patterns and bounds. Objects are loose because that schema does not
 * forbid extra keys (the enterprise profile adds `cloud.auth_pattern`, for one).
 */
const intMin = (min: number) => v.pipe(v.number(), v.integer(), v.minValue(min));
const int = (min: number, max: number) => v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max));
const str = v.string();
const bool = v.boolean();

/**
 * A YAML map. valibot's object schemas take an array (typeof [] is 'object'), so `stack: [backend]`
 * would pass as an object with no keys set; the reference's schema says `type: object` and rejects it.
 */
function map<const E extends v.ObjectEntries>(entries: E) {
  const object = v.looseObject(entries);
  // The check comes first: the object schema copies keys into a new object, so a check after it never sees the list.
  return v.pipe(v.custom<v.InferInput<typeof object>>(isMap, 'expected a map of keys, got a list'), object);
}

const isMap = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value);

const StackSchema = map({
  backend: v.optional(
    map({
      language: v.picklist(['csharp', 'typescript', 'python', 'java', 'go', 'rust']),
      framework: str,
      orm: v.optional(str),
      testing: v.optional(str),
    }),
  ),
  frontend: v.optional(map({ language: v.optional(str), framework: v.optional(str), state: v.optional(str), e2e: v.optional(str) })),
  database: v.optional(map({ engine: v.optional(str), migrations: v.optional(str) })),
  cloud: v.optional(map({ provider: v.optional(v.picklist(['azure', 'aws', 'gcp', 'self-hosted'])), services: v.optional(v.array(str)) })),
  ci_cd: v.optional(map({ platform: v.optional(v.picklist(['github-actions', 'azure-devops', 'gitlab-ci', 'jenkins', 'circleci'])) })),
});

export const EvaluationCriterionSchema = map({
  name: v.pipe(str, v.description('Short name of the criterion.')),
  description: v.pipe(str, v.description('What the evaluator checks for and what constitutes a pass.')),
  severity: v.optional(v.pipe(v.picklist(['fail', 'warn']), v.description('fail blocks (MUST), warn advises (SHOULD); default warn.'))),
  phases: v.optional(v.pipe(v.array(PhaseIdSchema), v.description('Phases this applies to; default [build].'))),
});

const QualitySchema = map({
  coverage_minimum: v.pipe(int(0, 100), v.description('Minimum code coverage percentage.')),
  coverage_critical: v.optional(v.pipe(int(0, 100), v.description('Coverage for critical paths (auth, payments).'))),
  max_file_lines: v.optional(intMin(100)),
  max_function_lines: v.optional(intMin(10)),
  require_tdd: v.optional(bool),
  require_code_review: v.optional(bool),
  require_security_review: v.optional(bool),
  visual_verification: v.optional(
    map({
      enabled: v.optional(bool),
      capture_points: v.optional(v.array(str)),
      baseline_comparison: v.optional(v.picklist(['manual', 'pixel-diff', 'none'])),
      diff_threshold_percent: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(100))),
    }),
  ),
  session_health_check: v.optional(
    map({ enabled: v.optional(bool), command: v.optional(str), timeout_seconds: v.optional(int(5, 300)), min_phase: v.optional(PhaseIdSchema) }),
  ),
  evaluation_criteria: v.optional(v.array(EvaluationCriterionSchema)),
});

export const COMPLIANCE_FRAMEWORKS = ['soc2', 'hipaa', 'gdpr', 'pci-dss', 'iso27001', 'none'] as const;

const ComplianceSettingsSchema = map({
  frameworks: v.optional(
    v.pipe(v.array(v.picklist(COMPLIANCE_FRAMEWORKS)), v.description('Compliance frameworks to enforce; each needs compliance/<framework>-gates.yaml.')),
  ),
  audit_trail: v.optional(bool),
  change_approval: v.optional(v.picklist(['peer-review', 'manager-approval', 'change-board', 'none'])),
});

const DocumentationSchema = map({
  intake_path: v.optional(str),
  types: v.optional(v.array(v.picklist(['pdf', 'markdown', 'text', 'docx', 'html']))),
  index_budget_tokens: v.optional(int(1000, 20000)),
  summary_budget_tokens: v.optional(int(200, 2000)),
  max_documents: v.optional(int(1, 500)),
});

const ConventionsSchema = map({
  commit_format: v.optional(str),
  branch_naming: v.optional(str),
  immutability: v.optional(bool),
  no_console_log: v.optional(bool),
});

/** An extra gate a profile pack adds to a phase: a `command` gate or any registered gate type. */
export const ProfileGateSchema = v.strictObject({
  id: v.pipe(str, v.regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/), v.description('Stable id shown in results.')),
  type: v.pipe(str, v.minLength(1), v.description('Gate type: `command`, or one registered by a plugin (see `sluice plugins`).')),
  phases: v.pipe(v.array(PhaseIdSchema), v.minLength(1), v.description('Phases whose gate run includes it.')),
  severity: v.optional(SeveritySchema),
  description: v.optional(str),
  argv: v.optional(v.pipe(v.array(str), v.minLength(1), v.description('command gate: program and arguments, run without a shell in the project root.'))),
  timeout_seconds: v.optional(v.pipe(v.number(), v.minValue(1), v.maxValue(3600))),
  with: v.optional(v.pipe(v.record(str, v.unknown()), v.description('Extra input passed to the gate type.'))),
});

/** sluice's own settings in a profile (a key the reference schema does not define, kept apart). */
export const SluiceProfileSettingsSchema = v.strictObject({
  placeholder_markers: v.optional(
    v.pipe(
      v.array(v.pipe(str, v.minLength(1))),
      v.description(
        'G2 markers, matched as whole tokens; `...` matches any text (`${...}`). Default: TODO, TBD, FIXME, ${...}, [placeholder], <!-- REQUIRED:, PLACEHOLDER, [INSERT...].',
      ),
    ),
  ),
  coverage_reports: v.optional(
    v.pipe(v.array(str), v.description('Coverage files for G3, relative to the project root; default: the usual lcov, json-summary and Cobertura locations.')),
  ),
  critical_paths: v.optional(v.pipe(v.array(str), v.description('Source path prefixes that quality.coverage_critical applies to.'))),
  gates: v.optional(v.array(ProfileGateSchema)),
  plugins: v.optional(PackPluginsSchema),
  per_gate_approval: v.optional(
    v.pipe(
      v.boolean(),
      v.description(
        'true: `next --confirmed` alone does not approve manual gates; each needs its own `--approve ID --signed-by NAME`. Default false: the confirmation approves every manual gate it listed (seed §6 step 5).',
      ),
    ),
  ),
  require_signed_approvals: v.optional(
    v.pipe(
      bool,
      v.description(
        'Refuse `next --confirmed`, `skip`, `reenter` and `waivers accept` without --sign (an SSH signature by a key in .sdlc/allowed_signers); a G2 waiver then lets its artifact pass only once accepted with a valid signature.',
      ),
    ),
  ),
  require_waiver_acceptance: v.optional(
    v.pipe(
      bool,
      v.description(
        'true: a `WAIVED:` line lets its artifact through G2 only once a person accepted it with `sluice waivers accept` (signed, when require_signed_approvals is on). Default: on when require_signed_approvals is.',
      ),
    ),
  ),
});

export const ProfileSchema = v.pipe(
  map({
    version: v.pipe(str, v.regex(/^\d+\.\d+$/, 'version must be major.minor'), v.description('Schema version (major.minor).')),
    company: map({
      name: v.pipe(str, v.description('Company or organization name.')),
      profile_id: v.pipe(str, v.regex(/^[a-z0-9-]+$/, 'profile_id must be kebab-case (a-z, 0-9, -)'), v.description('Unique profile identifier.')),
    }),
    stack: StackSchema,
    tools: v.optional(v.array(str)),
    quality: QualitySchema,
    compliance: v.optional(ComplianceSettingsSchema),
    documentation: v.optional(DocumentationSchema),
    conventions: v.optional(ConventionsSchema),
    sluice: v.optional(SluiceProfileSettingsSchema),
  }),
  v.description('profile.yaml: a company profile (mirrors profiles/_schema.yaml), frozen into .sdlc/profile.yaml at init.'),
);

export type Profile = v.InferOutput<typeof ProfileSchema>;
export type ProfileGate = v.InferOutput<typeof ProfileGateSchema>;
export type EvaluationCriterion = v.InferOutput<typeof EvaluationCriterionSchema>;
