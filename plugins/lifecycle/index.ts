/** sluice:lifecycle's public face: the requirement lifecycle plugin. */
export { lifecyclePlugin } from './lifecycle-plugin.ts';
