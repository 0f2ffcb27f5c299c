import { SluiceError, type QueueKey } from '../../core/index.ts';
import type { WireJob } from './queue-names.ts';

/**
 * What a job's signature covers: where it is queued (queue and id, so a signed job cannot be replayed
 * under another id or routed to other workers), its handler and everything the handler or the routing
 * reads. Counters a worker adds (`handedBack`) are outside it: they only say how often it ran.
 */
function signedPart(queueName: string, jobId: string, name: string, wire: WireJob) {
  return {
    queue: queueName,
    id: jobId,
    name,
    payload: wire.payload,
    key: wire.key ?? null,
    label: wire.label ?? null,
    needs: wire.needs ?? [],
    from: wire.from,
  };
}

export function signJob(key: QueueKey, queueName: string, jobId: string, name: string, wire: WireJob): WireJob {
  return { ...wire, sig: key.sign('job', signedPart(queueName, jobId, name, wire)) };
}

/** Undefined when the job is the orchestrator's, else the named refusal (QUEUE_JOB_UNSIGNED / QUEUE_JOB_FORGED). */
export function refuseJob(key: QueueKey, queueName: string, jobId: string, name: string, data: unknown): SluiceError | undefined {
  const wire = (data && typeof data === 'object' ? data : {}) as WireJob;
  if (typeof wire.sig !== 'string' || wire.sig === '')
    return new SluiceError('QUEUE_JOB_UNSIGNED', { message: `job ${name} ${jobId} carries no signature: refused, nothing of it ran` });
  if (!key.verify('job', signedPart(queueName, jobId, name, wire), wire.sig))
    return new SluiceError('QUEUE_JOB_FORGED', {
      message: `job ${name} ${jobId} is not signed with this machine's queue key (${key.file}): refused, nothing of it ran`,
    });
  return undefined;
}
