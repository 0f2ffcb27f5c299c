import { hostname } from 'node:os';
import { dirname } from 'node:path';
import * as v from 'valibot';
import { acquireLock, jsonCodec, loadConfig, SluiceConfigSchema } from '../../core/index.ts';
import { loadScript } from '../../delegates/script/script-file.ts';
import { DelegateScriptSchema } from '../../delegates/script/script-schema.ts';
import { sequenceStatePath, takeSequencePosition } from '../../delegates/script/script-sequence.ts';
import { IterationStateSchema } from '../../plugins/skill-tune/iteration-state-schema.ts';
import { extractScoreHeuristically, parseEvaluationJson } from '../../plugins/skill-tune/parse-evaluation.ts';
import { resolveSkill } from '../../plugins/skill-tune/read-skill.ts';
import { stateFileOf } from '../../plugins/skill-tune/tune-workspace.ts';
import type { NamedReader } from './fuzz-reader.ts';
import { repoFile, seedFile } from './repo-files.ts';

/** Skill tuning's run state and skills, sluice.config, the script delegate's files, lock files. */
const isScore = (n: unknown) => typeof n === 'number' && n >= 0 && n <= 100;
/** The sequence file's name depends only on the script's path, so it is the same under every root. */
const script = '/project/scripts/pipeline.yaml';
const sequenceFile = sequenceStatePath('/project', script).slice('/project/'.length);

export const tuneConfigReaders: NamedReader[] = [
  {
    name: 'iteration-state.json (`sluice tune --resume` / `--restore`)',
    spec: {
      file: '.sluice/runs/skill-tune-fuzz/iteration-state.json',
      format: 'json',
      seeds: [seedFile('tune', 'iteration-state.json')],
      codes: ['STATE_CORRUPT', 'STATE_INVALID', 'FILE_TOO_LARGE'],
      rewrite: { codec: jsonCodec, schema: IterationStateSchema },
      read: async (io) => (await io.kernel()).store.read(stateFileOf(dirname(io.path))),
      valid: (value) => v.is(IterationStateSchema, value),
    },
  },
  ...(
    [
      [
        'sluice.config.yaml',
        'yaml',
        [
          seedFile('sluice.config.yaml'),
          'concurrency: 4\nlockWaitMs: 200\nplugins: [./tools/acme-gates.mjs]\nprofiles: [packs/]\ndelegates:\n  claude: {command: claude, model: sonnet, timeout: 900, retries: 2, env: {ANTHROPIC_LOG: error}}\n  script: {file: test/pipeline-script.yaml}\n',
        ],
      ],
      [
        'sluice.config.json',
        'json',
        [
          JSON.stringify(
            {
              concurrency: 3,
              delegates: { shell: { command: './ask', args: ['--fast'], output: 'json' } },
              lifecycle: { commitAuthorization: { mode: 'ci', owner: 'ci', local_commit_authorized: true } },
            },
            null,
            2,
          ),
        ],
      ],
    ] as const
  ).map(
    ([file, format, seeds]): NamedReader => ({
      name: file,
      spec: {
        file,
        format,
        seeds,
        codes: ['CONFIG_MALFORMED', 'CONFIG_INVALID', 'FILE_TOO_LARGE'],
        read: async (io) => (await loadConfig(io.host, io.root)).config,
        valid: (value) => v.is(SluiceConfigSchema, value),
      },
    }),
  ),
  ...(
    [
      ['scripts/pipeline.yaml', 'yaml', [repoFile('plugins/skill-tune/demo/demo-script.yaml'), repoFile('plugins/lifecycle/demo/demo-script.yaml')]],
      [
        'scripts/pipeline.json',
        'json',
        [
          JSON.stringify(
            {
              version: 1,
              rules: [
                { match: 'Review the (\\S+) change', flags: 'is', mode: 'analysis', reply: { text: 'ok $1', json: { ok: true } } },
                {
                  match: 'Summarise',
                  replies: ['one', { text: 'two', files: { 'out/$1.md': 'x' }, status: 'error', exitCode: 3, delayMs: 5, error: 'boom', transient: true }],
                },
              ],
              default: 'fallback',
            },
            null,
            2,
          ),
        ],
      ],
    ] as const
  ).map(
    ([file, format, seeds]): NamedReader => ({
      name: `the script delegate file (${format})`,
      spec: {
        file,
        format,
        seeds,
        runs: 600,
        codes: ['SCRIPT_INVALID', 'FILE_TOO_LARGE'],
        read: async (io) => loadScript(await io.kernel(), { path: io.path, from: 'extra.script' }),
        valid: (value) => v.is(DelegateScriptSchema, value),
      },
    }),
  ),
  {
    name: 'script sequence positions (.sluice/script-delegate/*.json)',
    spec: {
      file: sequenceFile,
      format: 'json',
      seeds: [JSON.stringify({ version: 1, script, positions: { '0:Review': 2, '3:Summarise (\\w+)': 0 } }, null, 2)],
      runs: 400,
      codes: ['STATE_CORRUPT', 'STATE_INVALID', 'FILE_TOO_LARGE'],
      // The real reader takes the next position, so it reads, validates and writes back.
      read: async (io) => takeSequencePosition(await io.kernel(), script, '0:Review'),
      valid: (value) => Number.isInteger(value) && (value as number) >= 0,
    },
  },
  {
    name: 'SKILL.md (`sluice tune SKILL`: frontmatter, name, description, body)',
    spec: {
      file: '.claude/skills/fuzz/SKILL.md',
      format: 'markdown',
      frontmatter: true,
      seeds: [
        repoFile('plugins/skill-tune/demo/release-notes/SKILL.md'),
        '---\nname: "Fuzz: a skill"\ndescription: >\n  Folded text\n  on two lines.\nallowed-tools: [Read, Grep]\nversion: 2\n---\n\n# Steps\n\n1. Do it.\n',
      ],
      vocabulary: ['---', 'name: x', 'description: y', 'name: ""', 'description: [a]', '__proto__: {a: 1}', '# Body', '', 'name: &n x', 'description: *n'],
      codes: ['SKILL_INVALID', 'SKILL_NOT_FOUND'],
      read: async (io) => resolveSkill(await io.kernel(), '.claude/skills/fuzz'),
      valid: (value) => {
        const s = value as { id?: unknown; name?: unknown };
        return s.id === 'fuzz' && typeof s.name === 'string' && s.name.trim() !== '';
      },
    },
  },
  {
    name: "the evaluator's output (JSON, fenced, embedded, or the heuristic fallback): a score is 0-100 or there is none",
    spec: {
      file: '.sluice/runs/skill-tune-fuzz/iteration-1/evaluator-output-1.txt',
      // Text edits only: the output is prose around JSON.
      format: 'markdown',
      seeds: [
        JSON.stringify(
          {
            dimensions: { clarity: 72, completeness: 80, correctness: { score: 90 }, effectiveness: 60, efficiency: 50 },
            strengths: ['short'],
            weaknesses: [{ text: 'vague' }],
            suggestions: ['add an example', { priority: 'high', description: 'name the tone', target: 'SKILL.md' }],
            summary: 'fine',
            skills: { a: { dimensions: { clarity: 1, completeness: 2, correctness: 3, effectiveness: 4, efficiency: 5 } } },
          },
          null,
          2,
        ),
        'Clarity: 72\n**Completeness** — 80/100\n| Correctness | 90 |\nEffectiveness (20%): 60\nEfficiency: 50\nOverall score: 71',
      ],
      codes: [],
      async read(io) {
        const text = await io.host.readText(io.path);
        const strict = parseEvaluationJson(text);
        return { strict, heuristic: extractScoreHeuristically(text) ?? null };
      },
      valid: (value) => {
        const { strict, heuristic } = value as { strict: ReturnType<typeof parseEvaluationJson>; heuristic: { score: number } | null };
        return (strict.ok ? isScore(strict.evaluation.score) : typeof strict.error === 'string') && (heuristic === null || isScore(heuristic.score));
      },
    },
  },
  {
    name: 'lock files (an owner from another process, or garbage): taken over or LOCK_BUSY naming the file',
    spec: {
      file: '.sdlc/state.yaml.lock',
      format: 'json',
      // Owners that are gone: a dead pid on this machine (real files, so the real host name and pids).
      seeds: [JSON.stringify({ pid: 999_999_999, hostname: hostname(), acquiredAt: '2026-01-01T00:00:00.000Z', purpose: 'sluice next' })],
      real: true,
      runs: 400,
      codes: ['LOCK_BUSY'],
      async read(io) {
        const lock = await acquireLock(io.host, io.path, { waitMs: 0, display: '.sdlc/state.yaml.lock' });
        await lock.release();
        return lock.path;
      },
      valid: (value) => typeof value === 'string',
    },
  },
];
