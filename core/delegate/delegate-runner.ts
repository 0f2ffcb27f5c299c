import { dirname, join, relative } from 'pathe';
import { SluiceError } from '../errors/sluice-error.ts';
import type { FileWriter } from '../host/host.ts';
import { isInside, realPathInside } from '../paths/inside.ts';
import { credentialFreeHost } from './credential-free-host.ts';
import { createSecretRedactor, createStreamRedactor, type SecretRedactor } from '../secrets/redact-secrets.ts';
import type { DelegateFinishEvent } from '../hooks/core-hooks.ts';
import type { Kernel } from '../kernel/kernel-types.ts';
import type { DelegateAttempt, DelegateDefinition, DelegateRequest, DelegateResult, DelegateSettings } from './contract.ts';
import { createLastLineTracker, DEFAULT_HEARTBEAT_MS } from './run-heartbeat.ts';
import { changedPaths, snapshotWorkspace } from './workspace-snapshot.ts';
import { IN_PROCESS, runSandbox } from '../sandbox/run-sandbox.ts';

declare module '../queue/job-queue.ts' {
  interface Jobs {
    'delegate:run': { payload: { backend: string; request: DelegateRequest & Record<string, unknown> }; result: DelegateResult };
  }
}

export const DEFAULT_DELEGATE_TIMEOUT_MS = 10 * 60_000;
const MAX_RETRIES = 2;

/** Below this much of the budget left, a retry could not do anything useful. */
const MIN_RETRY_MS = 1000;

/**
 * Job handler for `delegate:run`: resolves the backend, opens the transcript, emits the
 * delegate hooks and retries only failures the backend marks transient. A backend failure is a
 * result, never an exception; an unknown or unavailable backend is an error (no silent fallback).
 * The timeout is ONE budget for the whole run: each retry gets what the earlier attempts left, so
 * an offline CLI that fails slowly cannot triple the wait. A heartbeat hook fires while it runs.
 */
export function createDelegateJob(kernel: Kernel) {
  const availability = new Map<string, Promise<void>>();
  const sandboxFor = runSandbox();
  let seq = 0;
  // Runs of this process: an analysis run that overlapped another is not judged (it could be blamed for the other's edits).
  let runsInFlight = 0;
  let runsStarted = 0;

  const ensureAvailable = (name: string, def: DelegateDefinition, settings: DelegateSettings) => {
    let pending = availability.get(name);
    if (!pending) {
      pending = def.available({ host: kernel.host, settings, kernel }).then((a) => {
        if (!a.ok)
          throw new SluiceError('DELEGATE_UNAVAILABLE', {
            message: `delegate ${name} is not available: ${a.reason ?? 'unknown reason'}`,
            field: `delegates.${name}`,
          });
      });
      availability.set(name, pending);
    }
    return pending;
  };

  return async ({ backend, request }: { backend: string; request: DelegateRequest }, job: { signal: AbortSignal }): Promise<DelegateResult> => {
    const def = kernel.delegates.get(backend);
    if (!def) {
      throw new SluiceError('DELEGATE_UNKNOWN', {
        message: `unknown delegate backend ${JSON.stringify(backend)} (known: ${kernel.delegates.names().join(', ')})`,
      });
    }
    const settings: DelegateSettings = kernel.config.delegates?.[backend] ?? {};
    await ensureAvailable(backend, def, settings);
    const { host, hooks } = kernel;
    // Decided before anything is written: `sandbox: required` on a machine without one runs nothing.
    const sandbox = def.inProcess ? IN_PROCESS : await sandboxFor(kernel, request);
    const backendHost = sandbox.wrap(credentialFreeHost(host));
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
    const checkWorkspace = request.mode === 'analysis' && settings.workspaceCheck !== false && request.workspaceCheck !== false;
    // sluice's own writes are not the run's: its transcript, and files its stdout/stderr are redirected to.
    const skip = [transcriptPath, ...(host.outputFiles?.() ?? [])].map((p) => relative(request.cwd, p)).filter((p) => !p.startsWith('..'));
    const before = checkWorkspace ? await snapshotWorkspace(host, request.cwd, skip) : undefined;
    const othersAtStart = runsInFlight;
    const startedBefore = ++runsStarted;
    runsInFlight++;
    const overlapped = () => othersAtStart > 0 || runsStarted !== startedBefore;
    const started = host.now().getTime();
    const deadline = started + timeoutMs;
    let attempt: DelegateAttempt | undefined;
    let tries = 0;
    const lastLine = createLastLineTracker();
    let lastOutputAt = started;
    const heartbeatMs = typeof settings.heartbeat === 'number' && settings.heartbeat > 0 ? settings.heartbeat * 1000 : DEFAULT_HEARTBEAT_MS;
    const beat = setInterval(() => {
      const now = host.now().getTime();
      const lastEvent = lastLine.last;
      void hooks.call('delegate:heartbeat', {
        backend,
        label: request.label,
        attempt: tries,
        maxAttempts: retries + 1,
        elapsedMs: now - started,
        silentMs: now - lastOutputAt,
        ...(lastEvent === undefined ? {} : { lastEvent }),
      });
    }, heartbeatMs);
    let a: DelegateAttempt;
    try {
      while (tries <= retries) {
        tries++;
        const remaining = deadline - host.now().getTime();
        transcript.write(
          `--- sluice delegate ${backend} attempt ${tries} mode=${request.mode} sandbox=${sandbox.use ?? 'none (in process)'} cwd=${request.cwd} at ${host.now().toISOString()}\n`,
        );
        await hooks.call('delegate:start', { backend, mode: request.mode, cwd: request.cwd, label: request.label, transcriptPath, attempt: tries });
        // One streaming decoder per stream, so a character split across two chunks arrives whole.
        const decoders = { stdout: new TextDecoder(), stderr: new TextDecoder() };
        attempt = await runAttempt(def, request, {
          host: backendHost,
          kernel,
          settings,
          signal: job.signal,
          transcript,
          timeoutMs: remaining,
          output(chunk, stream) {
            const text = typeof chunk === 'string' ? chunk : decoders[stream].decode(chunk, { stream: true });
            if (text === '') return;
            lastOutputAt = host.now().getTime();
            lastLine.push(text);
            transcript.write(text);
            if (hooks.hasHandlers('delegate:output'))
              void hooks.call('delegate:output', { backend, label: request.label, stream, chunk: redactor.redact(text) });
          },
        });
        if (attempt.status === 'timeout' && tries > 1)
          attempt = {
            ...attempt,
            error: `${backend} used up the run's budget of ${seconds(timeoutMs)} s over ${tries} attempts; the last one: ${attempt.error ?? 'timed out'}`,
          };
        if (attempt.status !== 'error' || !attempt.transient || tries > retries || job.signal.aborted) break;
        const backoff = Math.min(250 * 2 ** (tries - 1), 5000);
        if (deadline - host.now().getTime() - backoff < MIN_RETRY_MS) {
          attempt = { ...attempt, error: `${attempt.error ?? 'transient failure'} (no retry: the run's budget of ${seconds(timeoutMs)} s is used up)` };
          break;
        }
        transcript.write(`\n--- transient failure: ${attempt.error ?? 'unknown'}; retrying\n`);
        await host.sleep(backoff);
      }
      clearInterval(beat);
      a = attempt!;
      // A CLI that timed out offline says why in its last event ("Reconnecting... waiting for network").
      const last = lastLine.last;
      if (a.status === 'timeout' && last !== undefined) a = { ...a, error: `${a.error ?? 'timed out'}; its last output: ${last}` };
      if (before && a.status !== 'cancelled') {
        if (overlapped()) transcript.write('\n--- workspace check skipped: another delegate run of this process overlapped this analysis run\n');
        else a = judgeWorkspace(a, changedPaths(before, await snapshotWorkspace(host, request.cwd, skip)), transcript);
      }
    } finally {
      clearInterval(beat);
      runsInFlight--;
      await transcript.close();
    }
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
      ...(sandbox.use === undefined ? {} : { sandbox: sandbox.use }),
      ...(a.error === undefined ? {} : { error: a.error }),
      ...(a.deniedActions?.length ? { deniedActions: a.deniedActions } : {}),
      ...(a.warnings?.length ? { warnings: a.warnings } : {}),
    };
    const finish: DelegateFinishEvent = { ...result, label: request.label };
    await hooks.call('delegate:finish', finish);
    return result;
  };
}

/** An analysis run that changed the workspace failed, whatever it answered (WORKSPACE_CHANGED, naming the paths). */
function judgeWorkspace(a: DelegateAttempt, changed: string[] | undefined, transcript: FileWriter): DelegateAttempt {
  if (!changed || changed.length === 0) return a;
  const shown = changed.slice(0, 10).join(', ') + (changed.length > 10 ? ` and ${changed.length - 10} more` : '');
  const error = `WORKSPACE_CHANGED: the analysis run changed ${changed.length} path${changed.length === 1 ? '' : 's'} it may only read: ${shown}`;
  transcript.write(`\n--- ${error}\n`);
  return {
    ...a,
    status: a.status === 'timeout' ? 'timeout' : 'error',
    error: a.status === 'ok' ? error : `${a.error ?? a.status}; ${error}`,
    transient: false,
  };
}

const seconds = (ms: number) => Math.round(ms / 100) / 10;

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
    return {
      status: ctx.signal.aborted ? 'cancelled' : 'error',
      exitCode: null,
      text: '',
      durationMs: ctx.host.now().getTime() - started,
      error: `backend ${def.name} threw: ${message}`,
    };
  }
}
