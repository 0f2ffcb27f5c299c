import { basename, resolve } from 'node:path';
import { createKernel, createSecretRedactor, jsonSafe, loadConfig, terminalSafe, SluiceError, type CommandContext, type Kernel, type SluiceConfig } from '../../core/index.ts';
import { createNodeHost } from '../host-node/index.ts';
import { loadBuiltinPlugins } from './builtin-manifest.ts';
import { buildProgram, commanderOutcome, type ProgramResult } from './build-program.ts';
import { createCommandIO } from './command-io.ts';
import { commandWord, readGlobalOptions } from './global-options.ts';
import { printError } from './print-error.ts';
import { watchQueueProgress } from './queue-progress.ts';
import { colorsStream } from './terminal-style.ts';
import { cliWorkspaceTrust, COMMANDS_WITHOUT_PROJECT_CODE } from './trust/cli-workspace-trust.ts';

/** `delegates.<name>.env` values from sluice.config, named as the variable (or `<backend>.<name>` when two backends set one name differently). */
function configuredSecrets(config: SluiceConfig): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [backend, settings] of Object.entries(config.delegates ?? {})) {
    for (const [name, value] of Object.entries(settings.env ?? {})) out[name in out && out[name] !== value ? `${backend}.${name}` : name] = value;
  }
  return out;
}

/** Runs one sluice command line and returns its exit code (0 ok, 1 blocked, 2 usage, 3 busy). */
export async function runCli(argv: readonly string[]): Promise<number> {
  let json = argv.includes('--json');
  let redact = createSecretRedactor(process.env).redact;
  const controller = new AbortController();
  const onSigint = () => {
    if (controller.signal.aborted) process.exit(130);
    controller.abort();
  };
  process.on('SIGINT', onSigint);
  // Known before anything can fail, so errors name files relative to the project.
  let shownFrom: string | undefined;
  try {
    const globals = readGlobalOptions(argv);
    json = globals.json;
    const root = resolve(globals.cwd ?? process.cwd());
    shownFrom = root;
    const host = createNodeHost({ cwd: root });
    if ((await host.stat(root))?.kind !== 'dir') throw new SluiceError('USAGE', { message: `--cwd ${root} is not a folder` });
    const loaded = await loadConfig(host, root);
    const word = commandWord(argv);
    const trust = cliWorkspaceTrust(host, root, loaded);
    // Commands that read records never load project code; help lists a workspace's plugin commands only once it is trusted.
    const projectCode = word === undefined ? loaded.config.plugins.length > 0 && (await trust.review()).trusted : !COMMANDS_WITHOUT_PROJECT_CODE.has(word);
    const config = projectCode ? loaded.config : { ...loaded.config, plugins: [] };
    // Secrets from the environment and from the delegates' configured env never leave in any output.
    redact = createSecretRedactor({ ...process.env, ...configuredSecrets(config) }).redact;
    const io = createCommandIO({ json, interactive: host.isInteractive(), redact });
    const kernel: Kernel = await createKernel({
      host,
      config,
      projectRoot: root,
      // Config plugins may hook into any built-in, so they get every built-in; otherwise only what the command needs.
      plugins: await loadBuiltinPlugins(config.plugins.length > 0 ? undefined : word),
      trust,
      configFile: loaded.file === undefined ? undefined : basename(loaded.file),
      concurrency: globals.concurrency,
      onWarning: (e) => io.warn(`warning: ${e.message}`),
    });
    const stopProgress = json ? () => {} : watchQueueProgress(kernel);
    const result: ProgramResult = {};
    const makeContext = (): CommandContext => ({ kernel, host, cwd: root, io, signal: controller.signal });
    const program = buildProgram(kernel.commands.entries().map((e) => e.value), makeContext, result);
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
    const outcome = result.outcome;
    if (!outcome) return 0;
    // Output may quote delegate answers or files.
    if (json) process.stdout.write(`${jsonSafe(redact(JSON.stringify(outcome.data, null, 2)))}\n`);
    else if (outcome.human !== undefined && outcome.human !== '') {
      const text = terminalSafe(redact(outcome.human), { keepStyle: colorsStream(process.stdout) });
      process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    }
    return outcome.exitCode;
  } catch (error) {
    return printError(error, json, redact, shownFrom);
  } finally {
    process.off('SIGINT', onSigint);
  }
}
