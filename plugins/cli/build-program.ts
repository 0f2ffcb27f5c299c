import { Command, CommanderError, Option } from 'commander';
import { SluiceError, type CommandContext, type CommandDefinition, type CommandOutcome, compareText } from '../../core/index.ts';
import { sluiceVersion } from '../../core/version.ts';

export interface ProgramResult {
  outcome?: CommandOutcome;
}

/**
 * Commander's own error lines are dropped (sluice prints errors as one line, or as JSON); the help it
 * shows for a group command given without a subcommand goes to stderr, before that usage error.
 */
const output = { writeErr: (s: string) => void process.stderr.write(s), outputError: () => {} };

/** Turns the registered command definitions into a commander program; nested names become subcommands. */
export function buildProgram(commands: readonly CommandDefinition[], makeContext: () => CommandContext, result: ProgramResult): Command {
  const program = new Command('sluice')
    .description('Enforce AI-assisted delivery workflows: SDLC phase gates, requirement lifecycles, skill tuning.')
    .version(sluiceVersion, '-V, --version')
    .option('--json', 'print one JSON document on stdout and nothing else')
    .option('--cwd <dir>', 'project folder (default: the nearest folder, here or above, holding .sdlc/, sluice.config.* or .prizmkit/)')
    .option('--concurrency <n>', 'how many delegate runs and gate checks run at once')
    .option(
      '--queue <url>',
      'run requirements and tune runs on `sluice worker` processes through Redis: redis[s]://HOST:PORT[/DB], no password (ps shows it: use SLUICE_QUEUE_URL or --queue-file)',
    )
    .option('--queue-file <file>', 'the queue URL, password included, from an owner-only file (else SLUICE_QUEUE_URL, else queue: in the config)')
    .option('--no-color', 'no colours (also NO_COLOR=1); FORCE_COLOR=1 forces them off a terminal')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput(output);

  for (const def of [...commands].sort((a, b) => compareText(a.name, b.name))) {
    const parts = def.name.split(' ');
    let parent = program;
    for (const part of parts.slice(0, -1)) {
      parent = parent.commands.find((c) => c.name() === part) ?? parent.command(part).description(`${part} commands`).exitOverride().configureOutput(output);
    }
    const cmd = parent
      .command(parts[parts.length - 1])
      .description(def.summary)
      .exitOverride()
      .configureOutput(output);
    for (const arg of def.args ?? []) cmd.argument(arg);
    for (const o of def.options ?? []) {
      const option = new Option(o.flags, o.description);
      if (o.default !== undefined) option.default(o.default);
      if (o.choices) option.choices(o.choices);
      cmd.addOption(option);
    }
    if (def.examples?.length) cmd.addHelpText('after', `\nExamples:\n${def.examples.map((e) => `  $ ${e}`).join('\n')}`);
    if (def.help) cmd.addHelpText('after', `\n${def.help}`);
    cmd.action(async (...a: unknown[]) => {
      const self = a[a.length - 1] as Command;
      const args = a.slice(0, def.args?.length ?? 0) as (string | string[] | undefined)[];
      result.outcome = await def.run({ args, options: self.opts() }, makeContext());
    });
  }
  return program;
}

/** Commander reports usage problems by throwing; map them to exit codes (help and version are success). */
export function commanderOutcome(error: unknown): { exitCode: number } | SluiceError {
  if (!(error instanceof CommanderError)) throw error;
  // `sluice lifecycle` (a group without its subcommand) or no command at all: help went to stderr.
  if (error.code === 'commander.help' && error.exitCode !== 0)
    return new SluiceError('USAGE', { message: 'a command is missing: see the list above, or add --help' });
  if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return { exitCode: 0 };
  if (error.code === 'commander.executeSubCommandAsync') return { exitCode: 0 };
  // Commander puts its "(Did you mean status?)" on a second line; errors print as one.
  const message = error.message.replace(/^error:\s*/i, '').replace(/\s*\n\s*/g, ' ');
  return new SluiceError(error.code === 'commander.unknownCommand' ? 'UNKNOWN_COMMAND' : 'USAGE', { message });
}
