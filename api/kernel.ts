/**
 * `sluice/kernel`: the host and CLI side, for embedders that build a kernel themselves: createKernel,
 * the hosts, config loading, workspace trust and its subjects, hashing, queues, stores and journals,
 * sandbox policies, paths and text helpers. A plugin needs none of it: it imports `sluice`.
 */
export * from '../core/index.ts';
