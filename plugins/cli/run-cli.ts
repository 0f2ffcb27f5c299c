import { basename, resolve } from 'node:path';
import {
  createKernel,
  configuredSecrets,
  createSecretRedactor,
  defaultConfig,
  errorCodeEntry,
  findProjectRoot,
  isSluiceError,
  jsonEnvelope,
  jsonSafe,
  loadConfig,
  readQueueKey,
  terminalSafe,
  toSluiceError,
  SluiceError,
  type CommandContext,
  type CommandDefinition,
  type Host,
  type Kernel,
} from '../../core/index.ts';
import { createNodeHost } from '../host-node/index.ts';
import { builtinFaces, loadBuiltinErrorCodes, planCommand } from './builtin-manifest.ts';
import { buildProgram, commanderOutcome, type ProgramResult } from './build-program.ts';
import { createCommandIO } from './command-io.ts';
import { printDelegateHeartbeats } from './delegate-heartbeat.ts';
import { commandWord, commandWords, readGlobalOptions } from './global-options.ts';
import { printError } from './print-error.ts';
import { watchQueueProgress } from './queue-progress.ts';
import { createStatusLine, PLAIN_EVERY_MS } from './status-line.ts';
import { colorsStream } from './terminal-style.ts';
import { cliWorkspaceTrust, loadsProjectCode } from './trust/cli-workspace-trust.ts';

/** The shell's convention: a process ended by signal N exits 128 + N. */
const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
type StopSignal = keyof typeof SIGNAL_EXIT;

/**
 * Runs one sluice command line and returns its exit code (0 ok, 1 blocked, 2 usage, 3 busy).
 * Ctrl-C, SIGTERM (timeout, CI cancellation, docker stop) and SIGHUP (a closed terminal) all cancel
 * the command the same way: running AI CLIs lose their whole process group, state is left
 * consistent, and sluice exits 128 + the signal number. A second signal exits at once.
 */
export async function runCli(argv: readonly string[]): Promise<number> {
  const controller = new AbortController();
  let caught: StopSignal | undefined;
  const onSignal = (signal: StopSignal) => {
    if (controller.signal.aborted) process.exit(SIGNAL_EXIT[signal]);
    caught = signal;
    controller.abort();
  };
  const handlers = (Object.keys(SIGNAL_EXIT) as StopSignal[]).map((signal) => [signal, () => onSignal(signal)] as const);
  for (const [signal, handler] of handlers) process.on(signal, handler);
  try {
    const code = await runCommandLine(argv, controller);
    return caught === undefined ? code : SIGNAL_EXIT[caught];
  } finally {
    for (const [signal, handler] of handlers) process.off(signal, handler);
  }
}

async function runCommandLine(argv: readonly string[], controller: AbortController): Promise<number> {
  let json = argv.includes('--json');
  const sessionHook = isSessionHook(argv);
  // Built when first used: only an error before the config is read needs it (scanning the environment costs ~1 ms).
  let redact = (text: string) => createSecretRedactor(process.env).redact(text);
  // Known before anything can fail, so errors name files relative to the project.
  let shownFrom: string | undefined;
  let dispatcher: DispatcherFactory | undefined;
  let kernelRef: Kernel | undefined;
  let stopStatus = () => {};
  try {
    const globals = readGlobalOptions(argv);
    json = globals.json;
    const word = commandWord(argv);
    const root = globals.cwd === undefined ? await projectRootFrom(process.cwd(), word) : resolve(globals.cwd);
    shownFrom = root;
    const host = createNodeHost({ cwd: root });
    if ((await host.stat(root))?.kind !== 'dir') throw new SluiceError('USAGE', { message: `--cwd ${root} is not a folder` });
    // A session hook never fails the session: a broken config is a warning it passes on, and the defaults apply.
    const problems: SluiceError[] = [];
    const loaded = await loadConfig(host, root).catch((error: unknown) => {
      if (!sessionHook || !isSluiceError(error)) throw error;
      problems.push(error);
      return { config: defaultConfig(), file: undefined };
    });
    const trust = cliWorkspaceTrust(host, root, loaded);
    // Commands that read records never load project code; help lists a workspace's plugin commands only once it is trusted.
    const trusted = (await loadsProjectCode(word, loaded, trust)) ? loaded.config : { ...loaded.config, plugins: [] };
    // `--queue`, `--queue-file`, SLUICE_QUEUE_URL, then `queue:` in the config; commands read the URL from the config.
    const queue = await queueFor(host, word, globals, trusted.queue, `${basename(loaded.file ?? 'sluice.config.yaml')} field queue`);
    const config = queue === undefined ? trusted : { ...trusted, queue: queue.url };
    dispatcher = queue?.dispatcher;
    // Secrets from the environment and from the delegates' configured env never leave in any output.
    redact = createSecretRedactor({ ...process.env, ...configuredSecrets(config) }).redact;
    // One writer owns stderr's status line: the command's progress, the queue's counts and every printed line go through it.
    const statusLine = createStatusLine({ stream: process.stderr, plainEveryMs: plainEvery(), prefix: `sluice ${word ?? ''}`.trim() });
    stopStatus = () => statusLine.stop();
    const io = createCommandIO({ json, interactive: host.isInteractive(), redact, statusLine });
    for (const w of queue?.warnings ?? []) io.warn(`warning: ${w}`);
    // Config plugins may hook into any built-in, so they get every built-in; otherwise only what the command needs.
    const plan = config.plugins.length > 0 ? { plugins: builtinFaces, commands: 'all' as const } : planCommand(commandWords(argv));
    const kernel: Kernel = await createKernel({
      host,
      config,
      projectRoot: root,
      plugins: plan.plugins,
      commands: plan.commands,
      trust,
      configFile: loaded.file === undefined ? undefined : basename(loaded.file),
      concurrency: globals.concurrency,
      // `--sandbox` wins over `sandbox:` in the config (which, when it says off, needs trust).
      sandbox: globals.sandbox,
      dispatcher,
      onWarning: (e) => io.warn(`warning: ${e.message}`),
      onNotice: (line) => io.warn(line),
    });
    kernelRef = kernel;
    // For the test that checks each command sets up exactly the plugins its declarations name.
    if (process.env.SLUICE_TRACE_PLUGINS === '1') process.stderr.write(`sluice trace: plugins ${kernel.plugins.map((p) => p.name).join(' ')}\n`);
    const stopProgress = watchQueueProgress(kernel, statusLine);
    printDelegateHeartbeats(kernel, io);
    const result: ProgramResult = {};
    const makeContext = (): CommandContext => ({ kernel, host, cwd: root, io, signal: controller.signal, problems });
    const program = buildProgram(
      commandsFor(
        word,
        kernel.commands.entries().map((e) => e.value),
      ),
      makeContext,
      result,
    );
    if (argv.length === 0) {
      process.stdout.write(program.helpInformation());
      return 2;
    }
    try {
      await program.parseAsync([...argv], { from: 'user' });
    } catch (error) {
      const mapped = commanderOutcome(error);
      if (mapped instanceof SluiceError) throw mapped;
      return mapped.exitCode;
    } finally {
      stopProgress();
    }
    // The result is the last thing printed: the status line is gone before it.
    stopStatus();
    const outcome = result.outcome;
    if (!outcome) return 0;
    // Output may quote delegate answers or files.
    if (json) process.stdout.write(`${jsonSafe(redact(JSON.stringify(jsonEnvelope(outcome), null, 2)))}\n`);
    else if (outcome.human !== undefined && outcome.human !== '') {
      const text = terminalSafe(redact(outcome.human), { keepStyle: colorsStream(process.stdout) });
      process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    }
    return outcome.exitCode;
  } catch (error) {
    stopStatus();
    if (sessionHook) return printSessionHookFailure(error, json, redact);
    // A code raised before its plugin was loaded, or by a module of another plugin, is looked up now.
    if (isSluiceError(error) && errorCodeEntry(error.code) === undefined) await loadBuiltinErrorCodes();
    return printError(error, json, redact, shownFrom);
  } finally {
    stopStatus();
    await kernelRef?.dispatcher.close?.();
  }
}

/**
 * Where a command works when no --cwd is given: the nearest folder up from `start` that holds a
 * project (core's findProjectRoot), else `start`. `init` starts a project exactly where it is run, as
 * `git init` does.
 */
async function projectRootFrom(start: string, word: string | undefined): Promise<string> {
  if (word === 'init') return start;
  return (await findProjectRoot(createNodeHost({ cwd: start }), start)) ?? start;
}

/** `sluice handoff --hook claude`: Claude Code's SessionStart hook, which must never fail a session (an unknown agent is still a usage error). */
function isSessionHook(argv: readonly string[]): boolean {
  return commandWord(argv) === 'handoff' && argv.some((a, i) => (a === '--hook' && argv[i + 1] === 'claude') || a === '--hook=claude');
}

/**
 * What a session hook prints when sluice itself could not run (a folder it cannot read, a failure
 * before the command started): the error as one warning line in the SessionStart payload, exit 0.
 */
function printSessionHookFailure(error: unknown, json: boolean, redact: (text: string) => string): number {
  const e = toSluiceError(error, 'INTERNAL');
  const additionalContext = `[SDLC] WARNING: sluice could not summarise this project: ${e.message} (${e.code})`;
  const payload = { hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext } };
  process.stdout.write(`${jsonSafe(redact(JSON.stringify(json ? { ok: true, ...payload } : payload)))}\n`);
  return 0;
}

/** SLUICE_PROGRESS_EVERY_MS: how often a plain progress line is printed off a terminal (tests shorten it). */
function plainEvery(): number {
  const n = Number(process.env.SLUICE_PROGRESS_EVERY_MS);
  return Number.isInteger(n) && n >= 100 ? Math.min(n, PLAIN_EVERY_MS) : PLAIN_EVERY_MS;
}

type DispatcherFactory = NonNullable<Parameters<typeof createKernel>[0]['dispatcher']>;

/**
 * The queue of this command line, when one is set: its URL, the warnings to print (a password on the
 * command line, a loopback Redis without one) and, except for a worker and `queue …` (which work on the
 * URL themselves, a worker through its own in-process dispatcher), the Redis dispatcher for top-level
 * jobs. BullMQ loads only then (it is large). A Redis on another machine without password and TLS is
 * QUEUE_URL_INSECURE here, before anything connects.
 */
async function queueFor(
  host: Host,
  word: string | undefined,
  globals: { queue?: string; queueFile?: string },
  configured: string | undefined,
  configWhat: string,
): Promise<{ url: string; warnings: string[]; dispatcher?: DispatcherFactory } | undefined> {
  if (globals.queue === undefined && globals.queueFile === undefined && configured === undefined && !host.env('SLUICE_QUEUE_URL')) return undefined;
  const { checkTransport, createRedisQueue, parseRedisUrl, readQueueSettings, resolveQueueUrl } = await import('../queue-redis/index.ts');
  const resolved = await resolveQueueUrl(host, { flag: globals.queue, file: globals.queueFile, config: configured, configWhat });
  if (resolved === undefined) return undefined;
  const { url, what, warnings } = resolved;
  const settings = await readQueueSettings(host);
  const transport = checkTransport(parseRedisUrl(url, what, settings.tls), settings);
  if (transport) warnings.push(transport);
  if (word === 'worker' || word === 'queue') return { url, warnings };
  return { url, warnings, dispatcher: (onProgress) => createRedisQueue({ url, what, tls: settings.tls, onProgress, queueKey: () => readQueueKey(host) }) };
}

/**
 * The commands commander needs to run `word`: only its own group when a command of that name exists
 * (building every loaded command's parser was ~1 ms of a short command), else all of them, so help
 * lists them and an unknown word gets its "Did you mean" from the full set.
 */
function commandsFor(word: string | undefined, all: readonly CommandDefinition[]): readonly CommandDefinition[] {
  const own = word === undefined ? [] : all.filter((c) => c.name === word || c.name.startsWith(`${word} `));
  return own.length > 0 ? own : all;
}
