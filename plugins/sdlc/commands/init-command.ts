import { defineCommand } from '../../../core/index.ts';
import type { ProjectType } from '../state/state-schema.ts';
import { InitOutput } from './sdlc-outputs.ts';

export const initCommand = defineCommand({
  name: 'init',
  summary: 'start an SDLC project here: freeze a profile pack into .sdlc/ and create state and artifact folders',
  options: [
    {
      flags: '--profile <pack>',
      description:
        "built-in pack (starter, enterprise), a folder, a configured pack id or an installed package (default: starter; with --force, the project's own)",
    },
    { flags: '--name <name>', description: 'project name (default: the folder name)' },
    { flags: '--type <type>', description: 'project type; selects which required_for artifacts apply', choices: ['service', 'app', 'library', 'skill', 'cli'] },
    {
      flags: '--allowed-signers <file>',
      description: "who may sign approvals (git's allowed_signers format), frozen into .sdlc/allowed_signers; default: the pack's own",
    },
    {
      flags: '--force',
      description: 're-initialise an existing project (artifacts, profile and name are kept unless given, state starts over, the old state is backed up)',
    },
    { flags: '--confirmed', description: 'with --force on a project that has history: agree to start the history over' },
  ],
  examples: ['sluice init', 'sluice init --profile enterprise --name "Claims API" --type service', 'sluice init --force --confirmed'],
  output: InitOutput,
  async run({ options }, { kernel, io }) {
    const { initProject } = await import('../project/init-project.ts');
    const r = await initProject(kernel, {
      profile: options.profile as string | undefined,
      name: options.name as string | undefined,
      type: options.type as ProjectType | undefined,
      force: options.force === true,
      confirmed: options.confirmed === true,
      allowedSigners: options.allowedSigners as string | undefined,
    });
    const s = io.style;
    const first = r.state.phases[String(r.state.current_phase)];
    const human = [
      `${s.green('Initialised')} ${s.bold(r.state.project_name)} with profile ${s.bold(r.profileId)} (${r.pack.source}: ${r.pack.dir})`,
      `Frozen: ${r.frozen.join(', ')}`,
      `Artifact folders: ${r.artifactDirs.length} under .sdlc/artifacts/; ${r.written.length} starter template${r.written.length === 1 ? '' : 's'} written (existing files kept)`,
      ...(r.backup ? [`Previous state and frozen files backed up to ${r.backup}/`] : []),
      `Current phase: ${r.state.current_phase} (${first?.name ?? r.state.phase_name}). Next: write its artifacts, then run ${s.cyan('sluice gate')}.`,
    ].join('\n');
    return {
      exitCode: 0,
      data: {
        root: r.root,
        profileId: r.profileId,
        pack: r.pack,
        frozen: r.frozen,
        artifactDirs: r.artifactDirs,
        written: r.written,
        ...(r.backup ? { backup: r.backup } : {}),
        state: r.state,
      },
      human,
    };
  },
});
