/** sluice:skill-tune's face: the plugin description. */
export { skillTunePlugin } from './skill-tune-plugin.ts';
