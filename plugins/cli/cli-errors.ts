import { defineErrorCodes, ExitCode } from '../../core/index.ts';

const usage = ExitCode.usage;

/** The error codes sluice:cli reports (`sluice errors` lists them with the kernel's). */
export const cliErrors = defineErrorCodes('sluice:cli', {
  TRUST_STORE_UNSAFE: {
    exit: usage,
    title: 'the trust store is not private to you',
    hint: 'it must be your own file, mode 600 in a folder only you can write, outside the project',
  },
  DEMO_WORKER_FAILED: {
    exit: usage,
    title: 'a worker process of `sluice demo --queue` did not start',
    hint: 'run `sluice worker --queue URL` yourself to see why (is the Redis server up?)',
  },
});

type CliErrorCodes = typeof cliErrors;

declare module '../../core/errors/catalog.ts' {
  interface ErrorCodes extends CliErrorCodes {}
}
