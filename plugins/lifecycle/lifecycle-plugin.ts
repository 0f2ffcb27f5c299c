import { definePlugin } from '../../core/index.ts';
import { lifecycleHooks } from './lifecycle-hooks.ts';
import { lifecycleErrors } from './lifecycle-errors.ts';

/** Running requirements runs their stages on the delegate backends the config names. */
const DELEGATES = 'sluice:delegates';

/**
 * The requirement lifecycle (seed: prizmkit-workflow-state-protocol.md): code is the only writer of its
 * state. Its commands and schemas are said once, here; each module is imported when it is used.
 */
export const lifecyclePlugin = definePlugin({
  name: 'sluice:lifecycle',
  errorCodes: lifecycleErrors,
  hooks: lifecycleHooks,
  workflow: { description: 'PLAN_READY → … → COMMITTED per requirement: verdicts from artifacts, bounded repair routing, commit authorization, recovery' },
  commands: {
    'lifecycle start': { load: async () => (await import('./commands/lifecycle-start-command.ts')).lifecycleStartCommand },
    'lifecycle status': { load: async () => (await import('./commands/lifecycle-status-command.ts')).lifecycleStatusCommand },
    'lifecycle record': { load: async () => (await import('./commands/lifecycle-record-command.ts')).lifecycleRecordCommand },
    'lifecycle next': { load: async () => (await import('./commands/lifecycle-next-command.ts')).lifecycleNextCommand },
    'lifecycle recover': { load: async () => (await import('./commands/lifecycle-recover-command.ts')).lifecycleRecoverCommand },
    'lifecycle run': { needs: [DELEGATES], load: async () => (await import('./commands/lifecycle-run-command.ts')).lifecycleRunCommand },
    'lifecycle adopt-commit': { load: async () => (await import('./commands/lifecycle-adopt-commit-command.ts')).lifecycleAdoptCommitCommand },
  },
  schemas: {
    'workflow-state': {
      description: ".prizmkit/state/workflows/<slug>.json: one requirement's lifecycle state",
      load: async () => (await import('./state/workflow-state-schema.ts')).WorkflowStateSchema,
    },
    'lifecycle-test-verdict': {
      description: '{artifact_dir}/verdict.json (or test-result.json): the authoritative test verdict',
      load: async () => (await import('./readers/test-verdict-reader.ts')).TestVerdictSchema,
    },
    'lifecycle-retrospective-result': {
      description: '{artifact_dir}/retrospective-result.json',
      load: async () => (await import('./readers/retrospective-reader.ts')).RetrospectiveResultSchema,
    },
    'lifecycle-commit-request': {
      description: "{artifact_dir}/commit-request.json: message and exact paths of a requirement's commit",
      load: async () => (await import('./readers/commit-request-reader.ts')).CommitRequestSchema,
    },
    'lifecycle-commit-grant': {
      description: 'lifecycle.commitAuthorization in ~/.config/sluice/config.yaml, or the signed SLUICE_COMMIT_GRANT payload',
      load: async () => (await import('./commit/commit-grant.ts')).CommitGrantSchema,
    },
    // PrizmKit's formats, as sluice reads them (README: "PrizmKit artifacts").
    'prizmkit-review-final-result': {
      description: 'review-report.md `## Final Result` as render_review_report.py writes it (v1–v4)',
      load: async () => (await import('./readers/prizmkit-review-report.ts')).PrizmkitReviewResultSchema,
    },
    'prizmkit-test-verdict-v1': {
      description: 'PrizmKit v1 .prizmkit/test/evidence/<id>/verdict.json',
      load: async () => (await import('./readers/evidence-package-reader.ts')).V1VerdictSchema,
    },
    'prizmkit-evidence-manifest': {
      description: 'PrizmKit v1 .prizmkit/test/evidence/<id>/manifest.json (the fields sluice checks)',
      load: async () => (await import('./readers/evidence-package-reader.ts')).EvidenceManifestSchema,
    },
    'prizmkit-test-result': {
      description: 'PrizmKit v2–v4 {artifact_dir}/test-result.json (with its agreeing test-report.md)',
      load: async () => (await import('./readers/prizmkit-test-result.ts')).PrizmkitTestResultSchema,
    },
    'prizmkit-retrospective-result-v4': {
      description: 'PrizmKit v4 {artifact_dir}/retrospective-result.json',
      load: async () => (await import('./readers/retrospective-reader.ts')).RetrospectiveV4Schema,
    },
    'prizmkit-runtime-commit-request': {
      description: 'PrizmKit v4 {artifact_dir}/runtime-commit-request.json',
      load: async () => (await import('./readers/commit-request-reader.ts')).RuntimeCommitRequestSchema,
    },
    'prizmkit-workflow-state': {
      description: 'a workflow state PrizmKit wrote (v1–v4, the seed); migrated into workflow-state on read',
      load: async () => (await import('./state/prizmkit-state-migration.ts')).PrizmkitStateSchema,
    },
  },
  // One requirement's durable job: run in-process by `lifecycle run --remote`, by `sluice worker` with --queue.
  durableJobs: {
    'lifecycle:requirement': async (kernel) => {
      const { runRequirementJob } = await import('./remote/requirement-job.ts');
      return (payload, job) => runRequirementJob(kernel, payload, job);
    },
  },
  setup(ctx) {
    // `sluice anchor` anchors every requirement's journal (the files are the plugin's; the anchors the kernel's).
    ctx.hook('records:journals', async (e) => {
      const { listRequirementJournals } = await import('./journal/requirement-journal.ts');
      for (const j of await listRequirementJournals(ctx.kernel, e.root)) e.add(j);
    });
  },
});
