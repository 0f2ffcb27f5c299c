import { describeReaders } from './describe-readers.ts';
import { lifecycleReaders } from './reader-specs-lifecycle.ts';

/** workflow-state.json and every stage's evidence: review report, test verdict, retrospective, plan, commit request. */
describeReaders('lifecycle readers return a valid value or a catalogued error naming the file, on any input', lifecycleReaders);
