import { defineCommand } from '../../../core/index.ts';
import { ProfileValidateOutput } from '../view-outputs.ts';

/** `sluice profile validate PATH`: every violation of a profile or pack, with YAML path and line. */
export const profileValidateCommand = defineCommand({
  name: 'profile validate',
  summary: 'validate a profile.yaml or a profile pack folder: every violation once, with its YAML path and line',
  args: ['<path>'],
  examples: ['sluice profile validate ./packs/acme', 'sluice profile validate profile.yaml --json'],
  output: ProfileValidateOutput,
  async run(input, ctx) {
    const { runProfileValidate } = await import('./run-profile-validate.ts');
    return runProfileValidate(input, ctx);
  },
});
