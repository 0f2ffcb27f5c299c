/**
 * Asks tap (the runner of `npm test`) for a longer per-file limit than .taprc's, the way tap's own
 * `t.setTimeout` does it: an IPC message to the parent naming this child. For the few files whose
 * wall time is many processes (the differential suite against the reference scripts): their CPU time
 * is small, but on a loaded machine each process waits its turn. A no-op outside tap.
 */
export function extendRunnerTimeout(ms: number): void {
  if (process.env.TAP_CHILD_ID === undefined) return;
  process.send?.({ setTimeout: ms, key: process.env.TAP_CHILD_KEY, child: process.env.TAP_CHILD_ID });
}
