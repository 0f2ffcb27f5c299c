/**
 * The queue every delegate run and gate check goes through. It is an interface so a distributed
 * backend (BullMQ on Redis) can implement it later: payloads are plain JSON and handlers are
 * registered by name, never passed as closures.
 *
 * Rule for handler authors: a job handler must not await another job on the same queue (with all
 * slots taken that deadlocks). Orchestrate outside jobs; only leaf work is a job.
 */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** Job names with their payload and result types; extended by declaration merging. */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface Jobs {}
export type JobName = keyof Jobs & string;
type JobSpec<N extends JobName> = Jobs[N] extends { payload: infer P; result: infer R } ? { payload: P; result: R } : never;
export type JobPayload<N extends JobName> = JobSpec<N>['payload'];
export type JobResult<N extends JobName> = JobSpec<N>['result'];

export interface JobContext {
  id: string;
  /** Aborted when the caller cancels the job; handlers must honour it. */
  signal: AbortSignal;
  /** Reports progress (JSON) to whoever awaits the job (`JobOptions.onProgress`), also from a remote worker. */
  progress?(data: JsonValue): void;
  /** On a distributed worker: the folder this job may create its files in (`--workdir`). Undefined in-process. */
  workdir?: string;
  /** 1 the first time; more when the job runs again after its worker died or handed it back (resume it). */
  attempt?: number;
  /**
   * On a distributed worker: whether this worker still holds the job's lease. A handler asks before it
   * makes its work count (a checkpoint, a push): a worker that lost the lease (frozen, cut off) discards
   * its result, as another worker has the job by then. Undefined in-process (the lease is never lost).
   */
  leaseHeld?(): Promise<boolean>;
}

export type JobHandler<N extends JobName> = (payload: JobPayload<N>, ctx: JobContext) => Promise<JobResult<N>>;

export interface JobOptions {
  /** Jobs with the same key run one at a time, in submission order (one writer per state file). */
  key?: string;
  signal?: AbortSignal;
  /** Higher runs earlier among waiting jobs. */
  priority?: number;
  /** Shown in progress output. */
  label?: string;
  /** Delegate backends the job uses: a distributed queue gives it only to workers that have all of them. */
  needs?: readonly string[];
  /** Receives what the handler reports with `ctx.progress`. */
  onProgress?(data: JsonValue): void;
  /** Passed to the handler as `ctx.workdir` (set by a distributed worker). */
  workdir?: string;
  /** Passed to the handler as `ctx.attempt` (set by a distributed worker). */
  attempt?: number;
  /** Passed to the handler as `ctx.leaseHeld` (set by a distributed worker). */
  leaseHeld?(): Promise<boolean>;
}

export interface QueueStats {
  concurrency: number;
  queued: number;
  running: number;
  done: number;
  failed: number;
}

export interface JobQueue {
  readonly kind: string;
  register<N extends JobName>(name: N, handler: JobHandler<N>, owner?: string): void;
  has(name: string): boolean;
  jobNames(): string[];
  run<N extends JobName>(name: N, payload: JobPayload<N>, options?: JobOptions): Promise<JobResult<N>>;
  /** Runs fn alone among everything holding the same key, without taking a concurrency slot. */
  exclusive<T>(key: string, fn: () => Promise<T>): Promise<T>;
  setConcurrency(limit: number): void;
  stats(): QueueStats;
  onIdle(): Promise<void>;
  /** Releases connections (a distributed backend); the CLI calls it when the command ends. */
  close?(): Promise<void>;
}

export interface QueueProgressEvent {
  job: string;
  id: string;
  label?: string;
  state: 'queued' | 'started' | 'done' | 'failed' | 'cancelled';
  stats: QueueStats;
}
