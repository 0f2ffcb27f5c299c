/**
 * sluice:sdlc-views' public face: the read side of the SDLC workflow (status, audit, report, specs,
 * handoff, profile validate) and the file format it adds. It reads what sluice:sdlc writes, through
 * that plugin's own public face.
 */
export { sdlcViewsPlugin } from './views-plugin.ts';
export type { SessionHandoff } from './handoff/session-handoff-schema.ts';
