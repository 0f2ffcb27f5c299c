/** `sluice/gates`: helpers a gate plugin needs to read project files the way the built-in gates do. */
export type { ArtifactRef } from '../gates/shared/artifact-ref.ts';
export { projectFile, readTextFile, MAX_ARTIFACT_BYTES, type ProjectFile } from '../gates/shared/project-file.ts';
export { resultId } from '../core/index.ts';
