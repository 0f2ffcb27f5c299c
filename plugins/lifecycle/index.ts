/** sluice:lifecycle's face: the plugin description (its codes, hooks, commands, schemas and job, all by name). */
export { lifecyclePlugin } from './lifecycle-plugin.ts';
export { lifecycleErrors } from './lifecycle-errors.ts';
export { lifecycleHooks } from './lifecycle-hooks.ts';
