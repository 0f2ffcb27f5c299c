import * as v from 'valibot';
import { commandOutput } from '../../../core/index.ts';

/** The --json documents of the CLI's own commands. */

const Named = v.strictObject({ name: v.string(), kind: v.picklist(['file', 'output']), plugin: v.string() });

export const SchemaOutput = v.union([
  commandOutput({ schemas: v.array(v.strictObject({ ...Named.entries, description: v.string() })) }),
  commandOutput({ name: v.string(), schema: v.pipe(v.record(v.string(), v.unknown()), v.description('The JSON Schema (draft-07).')) }),
]);

export const ErrorsOutput = commandOutput({
  codes: v.array(v.strictObject({ code: v.string(), owner: v.string(), exitCode: v.picklist([1, 2, 3]), title: v.string(), hint: v.string() })),
});

export const PluginsOutput = commandOutput({
  plugins: v.array(
    v.strictObject({ name: v.string(), version: v.optional(v.string()), enforce: v.optional(v.string()), source: v.string(), loadMs: v.number() }),
  ),
  gates: v.array(v.strictObject({ type: v.string(), id: v.string(), plugin: v.string(), description: v.string() })),
  delegates: v.array(v.strictObject({ name: v.string(), plugin: v.string(), description: v.string(), available: v.boolean(), reason: v.optional(v.string()) })),
  workflows: v.array(
    v.strictObject({ name: v.string(), plugin: v.string(), description: v.string(), commands: v.array(v.string()), schemas: v.array(v.string()) }),
  ),
  commands: v.array(v.strictObject({ name: v.string(), plugin: v.string(), summary: v.string() })),
  hooks: v.array(v.strictObject({ name: v.string(), kind: v.string(), observer: v.boolean(), declaredBy: v.string(), handlers: v.array(v.string()) })),
  jobs: v.array(v.strictObject({ name: v.string() })),
  schemas: v.array(Named),
});

const Subject = v.looseObject({ file: v.string(), what: v.string(), shows: v.string() });

export const TrustOutput = v.union([
  commandOutput({
    hash: v.string(),
    via: v.string(),
    trusted: v.boolean(),
    subjects: v.array(Subject),
    changes: v.array(v.strictObject({ kind: v.picklist(['added', 'changed', 'removed']), file: v.string(), what: v.string() })),
  }),
  commandOutput({ revoked: v.boolean() }),
]);

const Path = v.string();

export const DemoOutput = commandOutput({
  dir: Path,
  sdlc: v.looseObject({
    projectDir: Path,
    statePath: Path,
    reportIndex: Path,
    finalPhase: v.string(),
    steps: v.array(v.strictObject({ command: v.string(), exitCode: v.number(), outcome: v.string(), phase: v.string() })),
  }),
  lifecycle: v.looseObject({
    projectDir: Path,
    requirements: v.array(v.looseObject({ slug: v.string(), outcome: v.string(), status: v.nullable(v.string()) })),
    commits: v.array(v.strictObject({ sha: v.string(), subject: v.string(), paths: v.array(v.string()) })),
    durationMs: v.number(),
  }),
  tune: v.looseObject({ runDir: Path, reportPath: Path, chartPath: Path, reason: v.string(), scores: v.array(v.nullable(v.number())) }),
  /** With --queue: the queue and the worker processes the demo started (and stopped). */
  queue: v.optional(v.string()),
  workers: v.optional(v.array(v.strictObject({ pid: v.number(), workdir: Path }))),
});

const AnchoredJournal = v.strictObject({
  label: v.string(),
  file: v.string(),
  entries: v.number(),
  before: v.pipe(
    v.picklist(['verified', 'unanchored', 'partly']),
    v.description('what the journal was here before: partly = accepted unanchored up to `from`'),
  ),
  anchored: v.boolean(),
});

export const AnchorOutput = commandOutput({
  journals: v.array(AnchoredJournal),
  anchored: v.pipe(v.number(), v.description('how many journals were anchored by this run')),
  folder: v.pipe(v.string(), v.description("where this person's anchors and record key are (userFolders().state)")),
});
