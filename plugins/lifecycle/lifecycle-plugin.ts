import { definePlugin } from '../../core/index.ts';
import { lifecycleAdoptCommitCommand } from './commands/lifecycle-adopt-commit-command.ts';
import { lifecycleNextCommand } from './commands/lifecycle-next-command.ts';
import { lifecycleRecordCommand } from './commands/lifecycle-record-command.ts';
import { lifecycleRecoverCommand } from './commands/lifecycle-recover-command.ts';
import { lifecycleRunCommand } from './commands/lifecycle-run-command.ts';
import { lifecycleStartCommand } from './commands/lifecycle-start-command.ts';
import { lifecycleStatusCommand } from './commands/lifecycle-status-command.ts';
import { CommitGrantSchema } from './commit/commit-grant.ts';
import { lifecycleHooks } from './lifecycle-hooks.ts';
import { lifecycleErrors } from './lifecycle-errors.ts';
import { CommitRequestSchema, RuntimeCommitRequestSchema } from './readers/commit-request-reader.ts';
import { EvidenceManifestSchema, V1VerdictSchema } from './readers/evidence-package-reader.ts';
import { PrizmkitReviewResultSchema } from './readers/prizmkit-review-report.ts';
import { PrizmkitTestResultSchema } from './readers/prizmkit-test-result.ts';
import { RetrospectiveResultSchema, RetrospectiveV4Schema } from './readers/retrospective-reader.ts';
import { TestVerdictSchema } from './readers/test-verdict-reader.ts';
import { PrizmkitStateSchema } from './state/prizmkit-state-migration.ts';
import { WorkflowStateSchema } from './state/workflow-state-schema.ts';

/** The requirement lifecycle (seed: prizmkit-workflow-state-protocol.md): code is the only writer of its state. */
export const lifecyclePlugin = definePlugin({
  name: 'sluice:lifecycle',
  setup(ctx) {
    ctx.registerErrorCodes(lifecycleErrors);
    ctx.declareHooks(lifecycleHooks);
    // `sluice anchor` anchors every requirement's journal (the files are the plugin's; the anchors the kernel's).
    ctx.hook('records:journals', async (e) => {
      const { listRequirementJournals } = await import('./journal/requirement-journal.ts');
      for (const j of await listRequirementJournals(ctx.kernel, e.root)) e.add(j);
    });
    ctx.registerSchema('workflow-state', WorkflowStateSchema, ".prizmkit/state/workflows/<slug>.json: one requirement's lifecycle state");
    ctx.registerSchema('lifecycle-test-verdict', TestVerdictSchema, '{artifact_dir}/verdict.json (or test-result.json): the authoritative test verdict');
    ctx.registerSchema('lifecycle-retrospective-result', RetrospectiveResultSchema, '{artifact_dir}/retrospective-result.json');
    ctx.registerSchema(
      'lifecycle-commit-request',
      CommitRequestSchema,
      "{artifact_dir}/commit-request.json: message and exact paths of a requirement's commit",
    );
    ctx.registerSchema(
      'lifecycle-commit-grant',
      CommitGrantSchema,
      'lifecycle.commitAuthorization in ~/.config/sluice/config.yaml, or the signed SLUICE_COMMIT_GRANT payload',
    );
    // PrizmKit's formats, as sluice reads them (README: "PrizmKit artifacts").
    ctx.registerSchema(
      'prizmkit-review-final-result',
      PrizmkitReviewResultSchema,
      'review-report.md `## Final Result` as render_review_report.py writes it (v1–v4)',
    );
    ctx.registerSchema('prizmkit-test-verdict-v1', V1VerdictSchema, 'PrizmKit v1 .prizmkit/test/evidence/<id>/verdict.json');
    ctx.registerSchema(
      'prizmkit-evidence-manifest',
      EvidenceManifestSchema,
      'PrizmKit v1 .prizmkit/test/evidence/<id>/manifest.json (the fields sluice checks)',
    );
    ctx.registerSchema('prizmkit-test-result', PrizmkitTestResultSchema, 'PrizmKit v2–v4 {artifact_dir}/test-result.json (with its agreeing test-report.md)');
    ctx.registerSchema('prizmkit-retrospective-result-v4', RetrospectiveV4Schema, 'PrizmKit v4 {artifact_dir}/retrospective-result.json');
    ctx.registerSchema('prizmkit-runtime-commit-request', RuntimeCommitRequestSchema, 'PrizmKit v4 {artifact_dir}/runtime-commit-request.json');
    ctx.registerSchema(
      'prizmkit-workflow-state',
      PrizmkitStateSchema,
      'a workflow state PrizmKit wrote (v1–v4, the seed); migrated into workflow-state on read',
    );
    ctx.registerWorkflow({
      name: 'lifecycle',
      description: 'PLAN_READY → … → COMMITTED per requirement: verdicts from artifacts, bounded repair routing, commit authorization, recovery',
      commands: ['lifecycle start', 'lifecycle status', 'lifecycle record', 'lifecycle next', 'lifecycle recover', 'lifecycle run', 'lifecycle adopt-commit'],
      schemas: [
        'workflow-state',
        'lifecycle-test-verdict',
        'lifecycle-retrospective-result',
        'lifecycle-commit-request',
        'lifecycle-commit-grant',
        'prizmkit-review-final-result',
        'prizmkit-test-verdict-v1',
        'prizmkit-evidence-manifest',
        'prizmkit-test-result',
        'prizmkit-retrospective-result-v4',
        'prizmkit-runtime-commit-request',
        'prizmkit-workflow-state',
      ],
    });
    // One requirement's durable job: run in-process by `lifecycle run --remote`, by `sluice worker` with --queue.
    ctx.registerDurableJob('lifecycle:requirement', async (payload, job) =>
      (await import('./remote/requirement-job.ts')).runRequirementJob(ctx.kernel, payload, job),
    );
    for (const command of [
      lifecycleStartCommand,
      lifecycleStatusCommand,
      lifecycleRecordCommand,
      lifecycleNextCommand,
      lifecycleRecoverCommand,
      lifecycleRunCommand,
      lifecycleAdoptCommitCommand,
    ])
      ctx.registerCommand(command);
  },
});
