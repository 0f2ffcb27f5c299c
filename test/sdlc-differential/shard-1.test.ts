import { extendRunnerTimeout } from '../helpers/runner-timeout.ts';
import { describeShard } from './walk-profiles.ts';

// Every other profile of the reference (see walk-profiles.ts): two files, so tap runs them side by side.
extendRunnerTimeout(900_000);
describeShard(1);
