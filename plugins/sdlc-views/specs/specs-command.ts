import { defineCommand } from '../../../core/index.ts';
import { SpecsOutput } from '../view-outputs.ts';
import { SPEC_FORMAT_HELP } from './spec-format-help.ts';

/** `sluice specs`: counts by status and risk from the spec files' own frontmatter. */
export const specsCommand = defineCommand({
  name: 'specs',
  summary: 'spec backlog from specs/*.md frontmatter: counts by status and risk, in-flight list, WIP cap',
  options: [
    { flags: '--repo <path>', description: 'repo whose specs/ folder to scan (default: the project folder)' },
    { flags: '--wip-cap <n>', description: 'exit 1 (WIP_CAP_BREACHED) when more than N specs are in flight' },
  ],
  examples: ['sluice specs', 'sluice specs --wip-cap 3', 'sluice specs --repo ../service --json'],
  help: SPEC_FORMAT_HELP,
  output: SpecsOutput,
  async run(input, ctx) {
    const { runSpecs } = await import('./run-specs.ts');
    return runSpecs(input, ctx);
  },
});
