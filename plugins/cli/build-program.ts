import { Command, CommanderError, Option } from 'commander';
import { SluiceError, type CommandContext, type CommandDefinition, type CommandOutcome, compareText } from '../../core/index.ts';
import { sluiceVersion } from './version.ts';

export interface ProgramResult {
  outcome?: CommandOutcome;
}

/** Turns the registered command definitions into a commander program; nested names become subcommands. */
export function buildProgram(commands: readonly CommandDefinition[], makeContext: () => CommandContext, result: ProgramResult): Command {
  const program = new Command('sluice')
    .description('Enforce AI-assisted delivery workflows: SDLC phase gates, requirement lifecycles, skill tuning.')
    .version(sluiceVersion, '-V, --version')
    .option('--json', 'print one JSON document on stdout and nothing else')
    .option('--cwd <dir>', 'project folder (default: the current folder)')
    .option('--concurrency <n>', 'how many delegate runs and gate checks run at once')
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ writeErr: () => {}, outputError: () => {} });

  for (const def of [...commands].sort((a, b) => compareText(a.name, b.name))) {
    const parts = def.name.split(' ');
    let parent = program;
    for (const part of parts.slice(0, -1)) {
      parent = parent.commands.find((c) => c.name() === part) ?? parent.command(part).description(`${part} commands`).exitOverride().configureOutput({ writeErr: () => {}, outputError: () => {} });
    }
    const cmd = parent.command(parts[parts.length - 1]).description(def.summary).exitOverride().configureOutput({ writeErr: () => {}, outputError: () => {} });
    for (const arg of def.args ?? []) cmd.argument(arg);
    for (const o of def.options ?? []) {
      const option = new Option(o.flags, o.description);
      if (o.default !== undefined) option.default(o.default);
      if (o.choices) option.choices(o.choices);
      cmd.addOption(option);
    }
    if (def.examples?.length) cmd.addHelpText('after', `\nExamples:\n${def.examples.map((e) => `  $ ${e}`).join('\n')}`);
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
  if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return { exitCode: 0 };
  if (error.code === 'commander.executeSubCommandAsync') return { exitCode: 0 };
  // Commander puts its "(Did you mean status?)" on a second line; errors print as one.
  const message = error.message.replace(/^error:\s*/i, '').replace(/\s*\n\s*/g, ' ');
  return new SluiceError(error.code === 'commander.unknownCommand' ? 'UNKNOWN_COMMAND' : 'USAGE', { message });
}
