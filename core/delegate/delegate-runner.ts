import { dirname, join } from 'pathe';
import { SluiceError } from '../errors/sluice-error.ts';
import type { FileWriter } from '../host/host.ts';
import { isInside, realPathInside } from '../paths/inside.ts';
import { credentialFreeHost } from './credential-free-host.ts';
import { createSecretRedactor, createStreamRedactor, type SecretRedactor } from '../secrets/redact-secrets.ts';
import type { DelegateFinishEvent } from '../hooks/core-hooks.ts';
import type { Kernel } from '../kernel/kernel-types.ts';
import type { DelegateAttempt, DelegateDefinition, DelegateRequest, DelegateResult, DelegateSettings } from './contract.ts';

declare module '../queue/job-queue.ts' {
  interface Jobs {
    'delegate:run': { payload: { backend: string; request: DelegateRequest & Record<string, unknown> }; result: DelegateResult };
  }
}

export const DEFAULT_DELEGATE_TIMEOUT_MS = 10 * 60_000;
const MAX_RETRIES = 2;

/**
 * Job handler for `delegate:run`: resolves the backend, opens the transcript, emits the
 * delegate hooks and retries only failures the backend marks transient. A backend failure is a
 * result, never an exception; an unknown or unavailable backend is an error (no silent fallback).
 */
export function createDelegateJob(kernel: Kernel) {
  const availability = new Map<string, Promise<void>>();
  let seq = 0;

  const ensureAvailable = (name: string, def: DelegateDefinition, settings: DelegateSettings) => {
    let pending = availability.get(name);
    if (!pending) {
      pending = def.available({ host: kernel.host, settings }).then((a) => {
        if (!a.ok) throw new SluiceError('DELEGATE_UNAVAILABLE', { message: `delegate ${name} is not available: ${a.reason ?? 'unknown reason'}`, field: `delegates.${name}` });
      });
      availability.set(name, pending);
    }
    return pending;
  };

  return async ({ backend, request }: { backend: string; request: DelegateRequest }, job: { signal: AbortSignal }): Promise<DelegateResult> => {
    const def = kernel.delegates.get(backend);
    if (!def) {
      throw new SluiceError('DELEGATE_UNKNOWN', { message: `unknown delegate backend ${JSON.stringify(backend)} (known: ${kernel.delegates.names().join(', ')})` });
    }
    const settings: DelegateSettings = kernel.config.delegates?.[backend] ?? {};
    await ensureAvailable(backend, def, settings);
    const { host, hooks } = kernel;
    const backendHost = credentialFreeHost(host);
    // A missing working directory is the caller's mistake; spawning would only report a vague ENOENT.
    if ((await host.stat(request.cwd))?.kind !== 'dir') {
      throw new SluiceError('FILE_NOT_FOUND', { file: kernel.display(request.cwd), message: 'the delegate working directory does not exist' });
    }
    const stamp = host.now().toISOString().replace(/[:.]/g, '-');
    // The pid keeps two sluice processes starting runs in the same millisecond apart.
    const transcriptPath = request.transcriptPath ?? join(kernel.projectRoot, '.sluice', 'transcripts', `${stamp}-${backend}-${host.pid}-${++seq}.log`);
    // A symlinked .sluice/transcripts must not carry the transcript (and the mkdir) out of the project.
    if (isInside(kernel.projectRoot, transcriptPath)) await realPathInside(host, kernel.projectRoot, transcriptPath, 'transcript');
    await host.mkdir(dirname(transcriptPath));
    // Everything that reaches the transcript passes the secret redactor (backends write through it too).
    const redactor = createSecretRedactor({ ...host.envAll(), ...settings.env, ...(request as { env?: Record<string, string> }).env });
    const transcript = redactingWriter(await host.openWriter(transcriptPath, { append: true }), redactor);
    const timeoutMs = request.timeoutMs ?? (settings.timeout !== undefined ? settings.timeout * 1000 : DEFAULT_DELEGATE_TIMEOUT_MS);
    const retries = Math.min(settings.retries ?? MAX_RETRIES, 10);
    const started = host.now().getTime();
    let attempt: DelegateAttempt | undefined;
    let tries = 0;
    try {
      while (tries <= retries) {
        tries++;
        transcript.write(`--- sluice delegate ${backend} attempt ${tries} mode=${request.mode} cwd=${request.cwd} at ${host.now().toISOString()}\n`);
        await hooks.call('delegate:start', { backend, mode: request.mode, cwd: request.cwd, label: request.label, transcriptPath, attempt: tries });
        // One streaming decoder per stream, so a character split across two chunks arrives whole.
        const decoders = { stdout: new TextDecoder(), stderr: new TextDecoder() };
        attempt = await runAttempt(def, request, {
          host: backendHost,
          settings,
          signal: job.signal,
          transcript,
          timeoutMs,
          output(chunk, stream) {
            const text = typeof chunk === 'string' ? chunk : decoders[stream].decode(chunk, { stream: true });
            if (text === '') return;
            transcript.write(text);
            if (hooks.hasHandlers('delegate:output')) void hooks.call('delegate:output', { backend, label: request.label, stream, chunk: redactor.redact(text) });
          },
        });
        if (attempt.status !== 'error' || !attempt.transient || tries > retries || job.signal.aborted) break;
        transcript.write(`\n--- transient failure: ${attempt.error ?? 'unknown'}; retrying\n`);
        await host.sleep(Math.min(250 * 2 ** (tries - 1), 5000));
      }
    } finally {
      await transcript.close();
    }
    const a = attempt!;
    const result: DelegateResult = {
      backend,
      status: a.status,
      exitCode: a.exitCode,
      text: a.text,
      ...(a.json === undefined ? {} : { json: a.json }),
      ...(a.sessionId === undefined ? {} : { sessionId: a.sessionId }),
      ...(a.costUsd === undefined ? {} : { costUsd: a.costUsd }),
      ...(a.numTurns === undefined ? {} : { numTurns: a.numTurns }),
      durationMs: Math.max(a.durationMs, host.now().getTime() - started),
      transcriptPath,
      tries,
      ...(a.error === undefined ? {} : { error: a.error }),
    };
    const finish: DelegateFinishEvent = { ...result, label: request.label };
    await hooks.call('delegate:finish', finish);
    return result;
  };
}

/** A FileWriter that redacts secrets from text on its way to disk; held-back text is written on close. */
function redactingWriter(inner: FileWriter, redactor: SecretRedactor): FileWriter {
  const stream = createStreamRedactor(redactor);
  const bytes = new TextDecoder();
  return {
    write(chunk) {
      const safe = stream.push(typeof chunk === 'string' ? chunk : bytes.decode(chunk, { stream: true }));
      if (safe !== '') inner.write(safe);
    },
    async close() {
      const rest = stream.flush();
      if (rest !== '') inner.write(rest);
      await inner.close();
    },
  };
}

/** A backend that throws unexpectedly has a bug, but the contract says results, not exceptions. */
async function runAttempt(def: DelegateDefinition, request: DelegateRequest, ctx: Parameters<DelegateDefinition['run']>[1]): Promise<DelegateAttempt> {
  const started = ctx.host.now().getTime();
  try {
    const a = await def.run(request, ctx);
    if (a.status === 'ok' && a.text.trim() === '' && a.json === undefined) {
      return { ...a, status: 'error', error: 'backend produced no output' };
    }
    return a;
  } catch (error) {
    // A catalogued error (invalid script file, bad settings) is the user's to fix, not a run outcome.
    if (error instanceof SluiceError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    return { status: ctx.signal.aborted ? 'cancelled' : 'error', exitCode: null, text: '', durationMs: ctx.host.now().getTime() - started, error: `backend ${def.name} threw: ${message}` };
  }
}
