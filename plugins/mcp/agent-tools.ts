import * as v from 'valibot';

/**
 * What an agent may do through `sluice mcp`, as typed tools. Each runs one registered sluice command
 * with the options it would get from its command line, so its answer is that command's `--json`
 * document. What only a person may do — approve a gate, `next --confirmed`, skip, re-enter,
 * refreeze, accept waivers, trust, grant a commit, sign, anchor — has no tool at all: an agent that
 * wants it asks the person, who runs it in their own terminal.
 */
export interface AgentTool {
  /** The MCP tool name. */
  name: string;
  /** The sluice command it runs (`lifecycle record`). */
  command: string;
  description: string;
  /** Its arguments, as a valibot object schema (the JSON Schema the client sees is generated from it). */
  input: v.StrictObjectSchema<v.ObjectEntries, undefined>;
  /** The command's positional arguments and options, as its command line would give them. */
  call(input: Record<string, unknown>): { args: (string | string[] | undefined)[]; options: Record<string, unknown> };
}

const Text = (description: string) => v.pipe(v.string(), v.minLength(1), v.maxLength(4096), v.description(description));
const Slug = v.pipe(
  v.string(),
  v.regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'a requirement slug: lower-case letters, digits and dashes'),
  v.description('the requirement slug'),
);
const none = () => ({ args: [], options: {} });
/** Commander hands options over as the strings typed; the commands parse them. */
const asOption = (value: unknown) => (value === undefined ? undefined : String(value));
const defined = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, value]) => value !== undefined));

export const AGENT_TOOLS: readonly AgentTool[] = [
  {
    name: 'status',
    command: 'status',
    description: 'The SDLC project dashboard: current phase, progress, the phase table and recent history (`sluice status --json`).',
    input: v.strictObject({}),
    call: none,
  },
  {
    name: 'gate',
    command: 'gate',
    description:
      "Run a phase's gates (the current phase by default) and store the results, as `sluice gate --json` does. ok is false while a MUST gate fails; the blockers say what to fix.",
    input: v.strictObject({ phase: v.optional(Text('phase id from the registry (0, 1, build, close...); default: the current phase')) }),
    call: (i) => ({ args: [], options: defined({ phase: asOption(i.phase) }) }),
  },
  {
    name: 'next',
    command: 'next',
    description:
      'Dry run of advancing to the next phase (`sluice next --json`): BLOCKED, REVIEW REQUIRED with the manual gates a person must approve, or ready. It never advances: approving and confirming is the person’s, in their terminal.',
    input: v.strictObject({}),
    call: none,
  },
  {
    name: 'specs',
    command: 'specs',
    description: 'The spec backlog from specs/*.md frontmatter: counts by status and risk, what is in flight, an optional WIP cap (`sluice specs --json`).',
    input: v.strictObject({
      wipCap: v.optional(
        v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10_000), v.description('ok is false when more specs than this are in flight')),
      ),
      repo: v.optional(Text('repo whose specs/ folder to scan (default: the project)')),
    }),
    call: (i) => ({ args: [], options: defined({ wipCap: asOption(i.wipCap), repo: i.repo }) }),
  },
  {
    name: 'handoff',
    command: 'handoff',
    description: "The Build loop's session handoff (.sdlc/artifacts/build/session-handoff.json), validated and summarised for the next session.",
    input: v.strictObject({}),
    call: none,
  },
  {
    name: 'audit',
    command: 'audit',
    description: 'Gate effectiveness from the history, and every recorded approval’s signature verified (`sluice audit --json`).',
    input: v.strictObject({ compare: v.optional(Text("another project's .sdlc/state.yaml (or its folder) to compare gate rates with")) }),
    call: (i) => ({ args: [], options: defined({ compare: i.compare }) }),
  },
  {
    name: 'lifecycle_status',
    command: 'lifecycle status',
    description: 'The workflow state of requirements: all of them, or the ones named (`sluice lifecycle status --json`).',
    input: v.strictObject({ slugs: v.optional(v.pipe(v.array(Slug), v.maxLength(1000))) }),
    call: (i) => ({ args: [(i.slugs as string[] | undefined) ?? []], options: {} }),
  },
  {
    name: 'lifecycle_next',
    command: 'lifecycle next',
    description: 'Which stage of a requirement runs next and how to invoke it; runs nothing (`sluice lifecycle next SLUG --json`).',
    input: v.strictObject({ slug: Slug }),
    call: (i) => ({ args: [i.slug as string], options: {} }),
  },
  {
    name: 'lifecycle_start',
    command: 'lifecycle start',
    description:
      'Create the workflow state of a requirement (plan runs first), writing spec.md with the goal when there is none (`sluice lifecycle start SLUG --json`). Starting again is harmless: it says the requirement was already started.',
    input: v.strictObject({
      slug: Slug,
      goal: v.optional(Text('what the requirement is for; written to spec.md when there is none')),
      kind: v.optional(v.pipe(v.picklist(['specs', 'bugfix', 'refactor']), v.description('artifact folder: .prizmkit/<kind>/<slug>/'))),
      orchestrator: v.optional(Text('the coordinator that alone may advance it (default: none)')),
    }),
    call: (i) => ({ args: [i.slug as string], options: defined({ goal: i.goal, kind: i.kind, orchestrator: i.orchestrator }) }),
  },
  {
    name: 'lifecycle_record',
    command: 'lifecycle record',
    description:
      "Record a stage's result from its artifact (plan, implement, code-review, test, retrospective), mark it blocked, or unblock the requirement (`sluice lifecycle record SLUG STAGE --json`). The commit stage is not here: a commit needs the person's authorization.",
    input: v.strictObject({
      slug: Slug,
      stage: v.pipe(
        v.picklist(['plan', 'implement', 'code-review', 'test', 'retrospective', 'unblock']),
        v.description('the stage whose artifact to record, or unblock'),
      ),
      orchestrator: v.optional(Text('who is recording; must match the recorded orchestrator')),
      blocked: v.optional(Text('the stage could not produce its evidence: why')),
      resolution: v.optional(Text('with stage "unblock": what resolved the blocker')),
    }),
    call: (i) => ({
      args: [i.slug as string, i.stage as string],
      options: defined({ orchestrator: i.orchestrator, blocked: i.blocked, resolution: i.resolution }),
    }),
  },
  {
    name: 'tune_status',
    command: 'tune status',
    description: 'The skill-tuning runs of the project (or one run): status, iteration, scores and why a run stopped (`sluice tune status --json`).',
    input: v.strictObject({ run: v.optional(Text('one run folder, relative to the project (.sluice/runs/skill-tune-…)')) }),
    call: (i) => ({ args: [i.run as string | undefined], options: {} }),
  },
];
