import { SluiceError, type Host } from '../../../core/index.ts';

export interface GitResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Git output sluice reads (status, log) is small; more than this is not a workspace we should hash. */
const MAX_OUTPUT = 64 * 1024 * 1024;
const utf8 = new TextDecoder();

/**
 * Runs git without a shell, with stable output (C locale, no pager, no prompts) and literal pathspecs,
 * so a path like `*.ts` or `:(glob)x` means exactly that file.
 */
export interface GitOptions {
  input?: string;
  env?: Record<string, string>;
  /** Only for a call whose pathspecs are sluice's own constants: lets `:(exclude)` mean exclude. */
  pathspecMagic?: boolean;
  /** `-c key=value` settings for this call (hookless-git.ts: nothing the repository configures runs). */
  config?: readonly string[];
}

export async function runGit(host: Host, root: string, args: readonly string[], o: GitOptions = {}): Promise<GitResult> {
  const r = await runGitBytes(host, root, args, o);
  return { code: r.code, stdout: utf8.decode(r.stdout), stderr: r.stderr };
}

/** runGit with stdout as bytes, for content git prints as it is (`cat-file`). */
export async function runGitBytes(
  host: Host,
  root: string,
  args: readonly string[],
  o: GitOptions = {},
): Promise<{ code: number | null; stdout: Uint8Array; stderr: string }> {
  const out: Uint8Array[] = [];
  const err: Uint8Array[] = [];
  let size = 0;
  const take = (into: Uint8Array[]) => (chunk: Uint8Array) => {
    size += chunk.length;
    if (size <= MAX_OUTPUT) into.push(chunk);
  };
  const r = await host.spawn({
    command: 'git',
    args: [...(o.pathspecMagic ? [] : ['--literal-pathspecs']), '-c', 'core.quotepath=off', ...(o.config ?? []).flatMap((c) => ['-c', c]), ...args],
    cwd: root,
    env: { LC_ALL: 'C', GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat', GIT_OPTIONAL_LOCKS: '0', ...o.env },
    ...(o.input === undefined ? {} : { input: o.input }),
    timeoutMs: 120_000,
    onStdout: take(out),
    onStderr: take(err),
  });
  if (r.spawnError)
    throw new SluiceError('GIT_FAILED', {
      message: `cannot run git: ${r.spawnError}`,
      hint: 'install git; the lifecycle needs it for fingerprints and commits',
    });
  // Reading stopped while a pipe was still open: the output may be cut short, so it is not git's answer.
  if (r.stdioHeld) throw new SluiceError('GIT_FAILED', { message: `git ${args[0]} exited but its output did not finish (a pipe stayed open)` });
  if (size > MAX_OUTPUT) throw new SluiceError('GIT_FAILED', { message: `git ${args[0]} printed more than ${MAX_OUTPUT} bytes` });
  return { code: r.exitCode, stdout: concat(out), stderr: utf8.decode(concat(err)) };
}

/** Like runGit, but a non-zero exit is an error carrying git's own first line. */
export async function git(host: Host, root: string, args: readonly string[], o: GitOptions = {}): Promise<string> {
  const r = await runGit(host, root, args, o);
  if (r.code !== 0) {
    const line = r.stderr.split('\n').find((l) => l.trim() !== '') ?? `exit code ${r.code}`;
    throw new SluiceError('GIT_FAILED', { message: `git ${args[0]}: ${line.trim()}`, data: { args: [...args], stderr: r.stderr.slice(0, 4000) } });
  }
  return r.stdout;
}

function concat(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return all;
}
