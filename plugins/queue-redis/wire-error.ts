import { SluiceError, toSluiceError, type ErrorCode } from '../../core/index.ts';

/**
 * A handler's error crosses Redis as BullMQ's `failedReason` text: `CODE: message` then a JSON line with
 * the fields. The orchestrator rebuilds the same SluiceError (code, file, field, exit code), and an
 * operator reading `queue status` still sees a readable first line.
 */
export function encodeError(error: unknown): string {
  const e = toSluiceError(error);
  const fields = { code: e.code, detail: e.detail, file: e.file, field: e.field, plugin: e.plugin, hook: e.hook, data: e.data };
  return `${e.message}\n${JSON.stringify(fields)}`;
}

export function decodeError(reason: string | undefined): SluiceError {
  const text = reason ?? '';
  const newline = text.lastIndexOf('\n');
  if (newline >= 0) {
    try {
      const f = JSON.parse(text.slice(newline + 1)) as Record<string, unknown>;
      if (typeof f.code === 'string')
        return new SluiceError(f.code as ErrorCode, {
          message: typeof f.detail === 'string' ? f.detail : undefined,
          file: f.file as string | undefined,
          field: f.field as string | undefined,
          plugin: f.plugin as string | undefined,
          hook: f.hook as string | undefined,
          data: f.data as Record<string, unknown> | undefined,
        });
    } catch {
      // Not ours (BullMQ's own reasons, e.g. a job that stalled too often): reported as it is below.
    }
  }
  return new SluiceError('INTERNAL', { message: `job failed on a worker: ${firstLine(text) || 'no reason given'}` });
}

/** The error code a failure reason carries (encodeError), if it is one of ours. */
export function errorCodeOf(reason: string | undefined): string | undefined {
  const text = reason ?? '';
  try {
    const f = JSON.parse(text.slice(text.lastIndexOf('\n') + 1)) as { code?: unknown };
    return typeof f.code === 'string' ? f.code : undefined;
  } catch {
    return undefined;
  }
}

/** The readable part of a failure reason. */
export function firstLine(reason: string | undefined): string {
  return (reason ?? '').split('\n')[0];
}
