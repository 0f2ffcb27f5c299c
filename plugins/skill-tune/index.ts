/** sluice:skill-tune's public face: the execute/evaluate/improve loop as a plugin. */
export { skillTunePlugin } from './skill-tune-plugin.ts';
