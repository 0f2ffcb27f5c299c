import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DelegateRequest, DelegateResult, Kernel, RunOptions } from '../../core/index.ts';
import { answeringRequest } from '../helpers/delegate-request.ts';
import { delegateKernel, fakeBin, tempProject } from './delegate-kernel.ts';

/** The fakes in test/fixtures/bin come first on PATH, for availability checks and for spawning. */
export function useFakeClis(): void {
  if (!process.env.PATH?.startsWith(fakeBin)) process.env.PATH = `${fakeBin}:${process.env.PATH ?? ''}`;
}

export interface FakeCliRecord {
  cli: string;
  argv: string[];
  cwd: string;
  pid: number;
  argvPrompt?: string;
  env: Record<string, string | undefined>;
  /** Raw bytes the fake read from stdin. */
  stdin: Buffer;
}

export interface FakeSetup {
  root: string;
  recordDir: string;
  kernel: Kernel;
  records(cli: string): Promise<FakeCliRecord[]>;
  /** One run of `cli` on `prompt` in this project, as a request that should answer (see answeringRequest). */
  run(cli: string, prompt: string, extra?: Partial<DelegateRequest>, options?: RunOptions): Promise<DelegateResult>;
  /** The pids the fake `cli` recorded (the `ignore-term` behaviour). */
  pids(cli: string): Promise<RecordedPids[]>;
}

/** A project whose delegates record every call; `settings` are merged into each backend's settings. */
export async function fakeSetup(
  settings: Record<string, unknown> = {},
  perBackend: Record<string, Record<string, unknown>> = {},
  concurrency?: number,
): Promise<FakeSetup> {
  useFakeClis();
  const root = await tempProject();
  const recordDir = await mkdtemp(join(tmpdir(), 'sluice-fake-record-'));
  const base = { killGrace: 0.3, env: { FAKE_CLI_RECORD: recordDir, FAKE_CLI_STATE: join(recordDir, 'state') }, ...settings };
  const delegates = Object.fromEntries(['claude', 'agy', 'codex', 'shell'].map((b) => [b, { ...base, ...perBackend[b] }]));
  const kernel = await delegateKernel(root, { delegates }, concurrency);
  return {
    root,
    recordDir,
    kernel,
    records: (cli) => fakeCliRecords(recordDir, cli),
    run: (cli, prompt, extra = {}, options) => kernel.runDelegate(cli, answeringRequest(root, prompt, extra), options),
    pids: (cli) => recordedPids(recordDir, cli),
  };
}

/**
 * The opening of most backend tests: a fresh fake project (`perBackend` settings as in fakeSetup), one run
 * of `cli` on `prompt` in it, and the first call the fake recorded (undefined when nothing started).
 */
export async function fakeRun(
  cli: string,
  prompt: string,
  extra: Partial<DelegateRequest> = {},
  perBackend: Record<string, Record<string, unknown>> = {},
): Promise<{ f: FakeSetup; r: DelegateResult; rec: FakeCliRecord }> {
  const f = await fakeSetup({}, perBackend);
  const r = await f.run(cli, prompt, extra);
  const [rec] = await f.records(cli);
  return { f, r, rec };
}

/** Asserts that the run answered (else shows its error) with exactly these values of `fields`. */
export function assertAnswered(r: DelegateResult, fields: Partial<DelegateResult> = {}): void {
  assert.equal(r.status, 'ok', r.error ?? '');
  const seen = Object.fromEntries(Object.keys(fields).map((k) => [k, r[k as keyof DelegateResult]]));
  assert.deepEqual(seen, fields);
}

/** The calls a fake CLI recorded into `recordDir` (FAKE_CLI_RECORD), one per run, with the bytes it read from stdin. */
export async function fakeCliRecords(recordDir: string, cli: string): Promise<FakeCliRecord[]> {
  const files = (await readdir(recordDir)).filter((f) => new RegExp(`^${cli}-\\d+\\.json$`).test(f));
  return Promise.all(
    files.map(async (f) => {
      const rec = JSON.parse(await readFile(join(recordDir, f), 'utf8'));
      return { ...rec, stdin: await readFile(join(recordDir, f.replace(/\.json$/, '.stdin'))) } as FakeCliRecord;
    }),
  );
}

/** Whether a process still runs (a zombie waiting for its parent to reap it counts as gone). */
export function processRuns(pid: number): boolean {
  const stat = `/proc/${pid}/stat`;
  if (!existsSync(stat)) return false;
  try {
    const state = readFileSync(stat, 'utf8').replace(/^.*\) /s, '')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Waits until none of the pids runs, up to `ms`; returns the ones still running. */
export async function waitGone(pids: number[], ms = 3000): Promise<number[]> {
  const until = Date.now() + ms;
  for (;;) {
    const alive = pids.filter(processRuns);
    if (alive.length === 0 || Date.now() > until) return alive;
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface RecordedPids {
  child: number;
  grandchild: number;
}

/** Pids recorded by the `ignore-term` behaviour (child and grandchild). */
export async function recordedPids(recordDir: string, cli: string): Promise<RecordedPids[]> {
  const files = (await readdir(recordDir)).filter((f) => f.startsWith(`${cli}-pids-`));
  return Promise.all(files.map(async (f) => JSON.parse(await readFile(join(recordDir, f), 'utf8'))));
}

/**
 * The first pids the fake `cli` records into `recordDir`, once it has started however long that takes on a
 * loaded machine: polled every 50 ms, `polls` times at most (then undefined; without a bound the file's time
 * limit catches a fake that never starts).
 */
export async function startedPids(recordDir: string, cli: string, polls = Number.POSITIVE_INFINITY): Promise<RecordedPids | undefined> {
  for (let i = 0; i < polls; i++) {
    const [pids] = await recordedPids(recordDir, cli);
    if (pids) return pids;
    await new Promise((r) => setTimeout(r, 50));
  }
  return undefined;
}

/** A prompt no shell could pass through unharmed: quotes, $(), backticks, newlines, unicode, 200 KB. */
export function nastyPrompt(): string {
  const head = `Fix "this" and 'that'; run $(rm -rf /) and \`whoami\` $HOME \\n \\\\ %s %%\n\ttab\r\nünïcødé 🚀 no-nul\n`;
  const filler = 'All work and no play makes Jack a dull boy. '.repeat(4700);
  return `${head}${filler}\nEND "$(date)" \`id\`\n`;
}
