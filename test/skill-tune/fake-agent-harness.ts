import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { stringify } from 'yaml';
import { runSluice, startSluice } from '../hardening/cli-bundle.ts';
import { trustedEnv } from '../helpers/trusted-env.ts';
import { skillText } from './tune-harness.ts';

/**
 * Projects whose executor, evaluator and improver are `fake-tune-agent.mjs` behind the `shell`
 * delegate: an agent that can write anywhere (the project, HOME, the run folder) and add symlinks.
 */
export type AgentStep = {
  write?: Record<string, string>;
  append?: Record<string, string>;
  symlink?: Record<string, string>;
  sleepMs?: number;
  answer?: string;
  exit?: number;
};
export type AgentPlan = Record<string, AgentStep | AgentStep[]>;

export interface AgentProject {
  dir: string;
  home: string;
  prompts: string;
  run(...args: string[]): ReturnType<typeof runSluice>;
  /** `sluice tune ARGS` with no backend flags (--resume, --restore). */
  tune(...args: string[]): ReturnType<typeof runSluice>;
  /** Started, not awaited: a run to interrupt. */
  start(...args: string[]): ReturnType<typeof startSluice>;
  /** Replaces what the agent does from its next call on. */
  replan(plan: AgentPlan): Promise<void>;
  /** The prompts the agent got for a role and iteration, in call order. */
  promptsOf(role: string, iteration: number): Promise<string[]>;
}

const agent = resolve(import.meta.dirname, 'fake-tune-agent.mjs');

export async function agentProject(
  skills: Record<string, string>,
  plan: AgentPlan,
  files: Record<string, string | Uint8Array> = {},
  homeFiles: Record<string, string> = {},
): Promise<AgentProject> {
  const dir = await mkdtemp(join(tmpdir(), 'sluice-tune-agent-'));
  const home = await mkdtemp(join(tmpdir(), 'sluice-tune-home-'));
  const prompts = join(dir, '..', `${dir.split('/').pop()}-prompts`);
  for (const [id, text] of Object.entries(skills)) {
    await mkdir(join(dir, '.claude', 'skills', id), { recursive: true });
    await writeFile(join(dir, '.claude', 'skills', id, 'SKILL.md'), text);
  }
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  for (const [path, text] of Object.entries(homeFiles)) {
    await mkdir(join(home, path, '..'), { recursive: true });
    await writeFile(join(home, path), text);
  }
  // Outside HOME and the project, so reading it is nobody's change.
  const planFile = join(dir, '..', `${dir.split('/').pop()}-plan.json`);
  await writeFile(planFile, JSON.stringify(plan));
  await writeFile(
    join(dir, 'sluice.config.yaml'),
    stringify({
      delegates: { shell: { command: process.execPath, args: [agent], env: { FAKE_TUNE_PLAN: planFile, FAKE_TUNE_RECORD: prompts, FAKE_TUNE_PROJECT: dir } } },
    }),
  );
  const env = { HOME: home, ...(await trustedEnv(dir)) };
  return {
    dir,
    home,
    prompts,
    run: (...args) => runSluice(dir, ['tune', ...args, '--executor', 'shell', '--evaluator', 'shell', '--improver', 'shell', '--allow-self-evaluation'], env),
    tune: (...args) => runSluice(dir, ['tune', ...args], env),
    start: (...args) =>
      startSluice(dir, ['tune', ...args, '--executor', 'shell', '--evaluator', 'shell', '--improver', 'shell', '--allow-self-evaluation'], env),
    replan: (next) => writeFile(planFile, JSON.stringify(next)),
    async promptsOf(role, iteration) {
      const names = (await readdir(prompts).catch(() => [])).filter((f) => f.startsWith(`${role}-${iteration}-`)).sort();
      return Promise.all(names.map((f) => readFile(join(prompts, f), 'utf8')));
    },
  };
}

export { skillText };

/** Whether the text at `index` lies inside a fenced block, read as CommonMark reads fences. */
export function insideFence(text: string, index: number): boolean {
  let open: { char: string; length: number } | undefined;
  let offset = 0;
  for (const line of text.split('\n')) {
    if (offset > index) break;
    const m = /^(`{3,}|~{3,})(.*)$/.exec(line);
    if (m) {
      const fence = { char: m[1][0], length: m[1].length };
      if (!open) open = fence;
      else if (fence.char === open.char && fence.length >= open.length && m[2].trim() === '') open = undefined;
    }
    offset += line.length + 1;
  }
  return open !== undefined;
}
