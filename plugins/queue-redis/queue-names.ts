/**
 * Every Redis name sluice uses, in one place. BullMQ keys live under `<prefix>:<queue>:…`; sluice's
 * own (workers, key order, cancellations) under `<prefix>:sluice:…`.
 */
export const PREFIX = 'sluice';
const OWN = `${PREFIX}:sluice`;

/** The BullMQ queue for jobs needing these delegates: `jobs`, `jobs@claude`, `jobs@claude+codex`. */
export function queueNameFor(needs: readonly string[] = []): string {
  const sorted = [...new Set(needs)].sort();
  return sorted.length === 0 ? 'jobs' : `jobs@${sorted.join('+')}`;
}

/** The delegates a queue's jobs need (inverse of queueNameFor). */
export function needsOf(queueName: string): string[] {
  const at = queueName.indexOf('@');
  return at < 0 ? [] : queueName.slice(at + 1).split('+');
}

export const names = {
  /** SET of every queue name ever dispatched to, so workers and `queue status` find them. */
  queues: `${OWN}:queues`,
  /** SET of worker ids; each has a hash that expires unless its worker keeps beating. */
  workers: `${OWN}:workers`,
  worker: (id: string) => `${OWN}:worker:${id}`,
  /** LIST of `<queue>/<jobId>` per ordering key: its head is the one job of that key allowed to run. */
  keyOrder: (key: string) => `${OWN}:key:${key}`,
  /** Set once by the first orchestrator: when it is gone, Redis lost its data (not a drain). */
  epoch: `${OWN}:epoch`,
  /** An orchestrator's heartbeat (`WireJob.from`): a job whose orchestrator stopped beating has nobody waiting for it. */
  orchestrator: (from: string) => `${OWN}:orchestrator:${from}`,
  /** Marks a job `sluice queue retry` put back: it runs without its orchestrator. */
  retried: (jobId: string) => `${OWN}:retried:${jobId}`,
  /** Marks a job its orchestrator cancelled, for a worker that picks it up later. */
  cancelled: (jobId: string) => `${OWN}:cancelled:${jobId}`,
  /** Pub/sub: `cancel <jobId>` and `queue <name>` (a new queue to listen on). */
  channel: `${OWN}:events`,
  /** BullMQ's hash of one job (read to judge whether a key's head job is still alive). */
  jobHash: (queueName: string, jobId: string) => `${PREFIX}:${queueName}:${jobId}`,
} as const;

/** The payload on the wire: what the orchestrator put in, plus routing facts for workers and status. */
export interface WireJob {
  payload: unknown;
  key?: string;
  label?: string;
  needs?: string[];
  /** Host/pid of the orchestrator, for `queue status`. */
  from: string;
  /** HMAC of the job under the queue key (job-signature.ts): a worker runs nothing without it. */
  sig?: string;
}
