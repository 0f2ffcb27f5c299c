import * as v from 'valibot';
import { jsonCodec } from '../../core/index.ts';
import { createLifecycleContext } from '../../plugins/lifecycle/lifecycle-context.ts';
import { CommitRequestSchema, readCommitRequest } from '../../plugins/lifecycle/readers/commit-request-reader.ts';
import { PlanTasksSchema, readPlanTasks } from '../../plugins/lifecycle/readers/plan-tasks-reader.ts';
import { readRetrospectiveResult, RetrospectiveResultSchema } from '../../plugins/lifecycle/readers/retrospective-reader.ts';
import { readReviewVerdict, ReviewFinalResultSchema } from '../../plugins/lifecycle/readers/review-report-reader.ts';
import { readTestVerdict, TestVerdictSchema } from '../../plugins/lifecycle/readers/test-verdict-reader.ts';
import { readWorkflowState } from '../../plugins/lifecycle/record-stage.ts';
import { newWorkflowState } from '../../plugins/lifecycle/state/new-workflow-state.ts';
import { WorkflowStateSchema } from '../../plugins/lifecycle/state/workflow-state-schema.ts';
import type { NamedReader, ReaderSpec } from './fuzz-reader.ts';
import { seedFile } from './repo-files.ts';

/** Every requirement-lifecycle reader: the state index and each stage's evidence artifact. */
const fresh = newWorkflowState('.prizmkit/specs/fuzz', 'sluice-lifecycle-run', '2026-03-01T10:00:00.000Z');
const dir = '.prizmkit/specs/fuzz';
const evidenceFiles = { [`${dir}/test-output.txt`]: 'ok 1\n', '.prizmkit/prizm-docs/csv.md': '# csv\n' };
const without = <T extends Record<string, unknown>>(o: T, key: string) => Object.fromEntries(Object.entries(o).filter(([k]) => k !== key));
/** Readers report a hash of the bytes they read; a BOM or CRLF changes that, never the meaning. */
const meaning = (value: unknown) => JSON.parse(JSON.stringify(value, (k, v: unknown) => (k === 'sha256' ? undefined : v)));

/** verdict.json, or test-result.json from older tools: the same reader and rules. */
const testVerdict = (name: string): ReaderSpec => ({
  file: `${dir}/${name}`,
  format: 'json',
  fixtures: evidenceFiles,
  seeds: [
    seedFile('lifecycle', 'verdict.json'),
    JSON.stringify(
      {
        verdict: 'TEST_FAIL',
        repair_scope: 'production',
        failures: [{ test: 'parser handles empty input', message: 'expected []' }],
        counts: { passed: 41, failed: 1, skipped: 0 },
        evidence: ['test-output.txt'],
        summary: 'one failure',
      },
      null,
      2,
    ),
    JSON.stringify({ verdict: 'TEST_BLOCKED', blocker: 'database down', repair_scope: null }),
  ],
  codes: ['ARTIFACT_INVALID'],
  read: (io) => readTestVerdict(io.host, io.root, dir),
  valid: (value) => v.is(TestVerdictSchema, without(value as Record<string, unknown>, 'file')),
});

export const lifecycleReaders: NamedReader[] = [
  {
    name: 'workflow-state.json',
    spec: {
      file: '.prizmkit/state/workflows/fuzz.json',
      format: 'json',
      seeds: [seedFile('lifecycle', 'workflow-state-committed.json'), JSON.stringify(fresh, null, 2)],
      codes: ['STATE_CORRUPT', 'STATE_INVALID', 'FILE_TOO_LARGE'],
      rewrite: { codec: jsonCodec, schema: WorkflowStateSchema },
      read: async (io) => readWorkflowState(createLifecycleContext(await io.kernel(), io.root), 'fuzz'),
      valid: (value) => v.is(WorkflowStateSchema, value),
    },
  },
  {
    name: 'review-report.md: the last Final Result block',
    spec: {
      file: `${dir}/review-report.md`,
      format: 'markdown',
      seeds: [
        seedFile('lifecycle', 'review-report.md'),
        '## Final Result\n\n| Key | Value |\n|---|---|\n| **Verdict** | ❌ NEEDS FIXES |\n| Critical issues | 1 |\n| Total findings | 1 |\n',
      ],
      vocabulary: [
        '## Final Result',
        '### Final Result (round 2)',
        '## Final Result:',
        '# Review',
        '## Findings',
        '- Verdict: PASS',
        '- Verdict: NEEDS_FIXES',
        '- **Verdict**: ✅ PASS',
        'Verdict: needs fixes',
        '- Critical: 0',
        '- High: 1',
        '- Major: 2',
        '- Minor: 1',
        '- Info: 3',
        '- Total: 3',
        '- Total findings: 0',
        '- Critical: -1',
        '- Total: 99999999999999999999',
        '| Severity | Count |',
        '|---|---|',
        '| Major | 1 |',
        '```',
        '~~~',
        '    ## Final Result',
        '<!-- ## Final Result -->',
        '- Verdict: PASS\n- Verdict: PASS',
      ],
      codes: ['ARTIFACT_INVALID'],
      fieldless: /no "## Final Result" section/,
      read: (io) => readReviewVerdict(io.host, io.root, dir),
      view: meaning,
      valid: (value) => v.is(ReviewFinalResultSchema, without(value as Record<string, unknown>, 'file')),
    },
  },
  { name: 'verdict.json: the authoritative test verdict', spec: testVerdict('verdict.json') },
  { name: 'test-result.json: the authoritative test verdict (older tools)', spec: testVerdict('test-result.json') },
  {
    name: 'retrospective-result.json',
    spec: {
      file: `${dir}/retrospective-result.json`,
      format: 'json',
      fixtures: evidenceFiles,
      seeds: [
        seedFile('lifecycle', 'retrospective-result.json'),
        JSON.stringify({ result: 'DOCS_UPDATED', docs_updated: ['.prizmkit/prizm-docs/csv.md'], summary: 'documented the CSV format' }, null, 2),
      ],
      codes: ['ARTIFACT_INVALID'],
      read: (io) => readRetrospectiveResult(io.host, io.root, dir),
      valid: (value) => v.is(RetrospectiveResultSchema, without(value as Record<string, unknown>, 'file')),
    },
  },
  {
    name: 'plan.md task markers',
    spec: {
      file: `${dir}/plan.md`,
      format: 'markdown',
      seeds: [seedFile('lifecycle', 'plan.md'), '# Plan\n\n1. [ ] **T-001** parse\n2. [X] `T-002`: reject\n* [ ] [T-003] document\n'],
      vocabulary: [
        '- [ ] [T-001] a',
        '- [x] [T-002] b',
        '* [X] **T-003** c',
        '1. [ ] `T-004`: d',
        '- [ ] T-1 short id',
        '  - [x] [T-005] nested',
        '> - [ ] [T-006] quoted',
        '```',
        '- [ ] [T-001] duplicate',
        '- [y] [T-007] bad box',
        '+ [ ] [T-0000000000000000001] long id',
      ],
      codes: ['ARTIFACT_INVALID'],
      fieldless: /no task markers|task id T-\d+ appears twice/,
      read: (io) => readPlanTasks(io.host, io.root, dir),
      view: meaning,
      valid: (value) => v.is(PlanTasksSchema, (value as { tasks: unknown }).tasks),
    },
  },
  {
    name: 'commit-request.json',
    spec: {
      file: `${dir}/commit-request.json`,
      format: 'json',
      seeds: [
        seedFile('lifecycle', 'commit-request.json'),
        JSON.stringify({ message: 'feat(parser): accept empty input\n\nBody line.', paths: ['src/parser.ts', 'test/'], local_commit_authorized: true }),
      ],
      codes: ['ARTIFACT_INVALID'],
      read: (io) => readCommitRequest(io.host, io.root, dir),
      view: meaning,
      valid: (value) => v.is(CommitRequestSchema, without(value as Record<string, unknown>, 'file')),
    },
  },
];
