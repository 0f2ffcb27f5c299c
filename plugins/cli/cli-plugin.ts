import { definePlugin } from '../../core/index.ts';
import { cliErrors } from './cli-errors.ts';

/** Every plugin: what lists or exports all of them, and the demo that runs every workflow. */
const ALL = ['*'];

/** The CLI's own commands: introspection of the kernel, trust, anchors, the doctor and the demo. */
export const cliPlugin = definePlugin({
  name: 'sluice:cli',
  enforce: 'pre',
  errorCodes: cliErrors,
  commands: {
    plugins: { needs: ALL, load: async () => (await import('./commands/plugins-command.ts')).pluginsCommand },
    schema: { needs: ALL, load: async () => (await import('./commands/schema-command.ts')).schemaCommand },
    demo: { needs: ALL, load: async () => (await import('./commands/demo-command.ts')).demoCommand },
    trust: { load: async () => (await import('./commands/trust-command.ts')).trustCommand },
    // The SDLC history and every requirement's journal are anchored: their plugins say where they are.
    anchor: { needs: ['sluice:sdlc', 'sluice:lifecycle'], load: async () => (await import('./commands/anchor-command.ts')).anchorCommand },
    errors: { load: async () => (await import('./commands/errors-command.ts')).errorsCommand },
    doctor: { load: async () => (await import('./doctor/doctor-command.ts')).doctorCommand },
  },
});
