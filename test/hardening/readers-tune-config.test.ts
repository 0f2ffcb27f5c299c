import { describeReaders } from './describe-readers.ts';
import { tuneConfigReaders } from './reader-specs-tune-config.ts';

/** iteration-state.json, SKILL.md, evaluator output, sluice.config, the script delegate's files, lock files. */
describeReaders('skill-tune, config, script and lock readers return a valid value or a catalogued error naming the file', tuneConfigReaders);
