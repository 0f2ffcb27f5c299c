import { describeReaders } from './describe-readers.ts';
import { sdlcReaders } from './reader-specs-sdlc.ts';

/** state.yaml, profile.yaml, compliance files, the phase registry, session-handoff.json, spec frontmatter. */
describeReaders('SDLC readers return a valid value or a catalogued error naming the file, on any input', sdlcReaders);
