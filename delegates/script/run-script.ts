import { dirname, relative } from 'pathe';
import { realPathInside, SluiceError, type DelegateAttempt, type DelegateRequest, type DelegateRunContext, type Kernel } from '../../core/index.ts';
import { matchScript, replyAt, RuleTimeoutError, substitute, substituteJson, type Captures } from './match-script.ts';
import { loadScript, noScriptError, resolveScriptSource } from './script-file.ts';
import type { ScriptReply } from './script-schema.ts';
import { takeSequencePosition } from './script-sequence.ts';

type Waited = 'done' | 'timeout' | 'cancelled';

/** Sleeps for a simulated run time, cut short by the run's wall clock or its AbortSignal. */
function waitFor(ms: number, timeoutMs: number, signal: AbortSignal): Promise<Waited> {
  if (signal.aborted) return Promise.resolve('cancelled');
  return new Promise((done) => {
    const timedOut = timeoutMs < ms;
    const onAbort = () => {
      clearTimeout(timer);
      done('cancelled');
    };
    const timer = setTimeout(
      () => {
        signal.removeEventListener('abort', onAbort);
        done(timedOut ? 'timeout' : 'done');
      },
      Math.min(ms, timeoutMs),
    );
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

const asObject = (reply: ScriptReply) => (typeof reply === 'string' ? { text: reply } : reply);

/**
 * Writes a reply's files inside the run's working directory. Every path is checked (symlinks
 * included) before anything is written, so an escaping path writes nothing at all.
 */
async function writeReplyFiles(kernel: Kernel, cwd: string, files: Record<string, string>, captures: Captures): Promise<string[]> {
  const planned: [string, string][] = [];
  for (const [rawPath, rawContent] of Object.entries(files)) {
    const full = await realPathInside(kernel.host, cwd, substitute(rawPath, captures), 'scripted file');
    planned.push([full, substitute(rawContent, captures)]);
  }
  for (const [full, content] of planned) {
    await kernel.host.mkdir(dirname(full));
    await kernel.host.writeAtomic(full, content);
  }
  return planned.map(([full]) => relative(cwd, full));
}

/** One run of the script backend: match the prompt, take the reply, simulate time and outcome, answer. */
export async function runScript(kernel: Kernel, request: DelegateRequest, ctx: DelegateRunContext): Promise<DelegateAttempt> {
  const started = kernel.host.now().getTime();
  const elapsed = () => kernel.host.now().getTime() - started;
  const source = resolveScriptSource(kernel.projectRoot, kernel.host, ctx.settings, request);
  if (!source) throw noScriptError();
  const script = await loadScript(kernel, source);
  const display = kernel.display(source.path);
  let match;
  try {
    match = await matchScript(kernel.host, script, request.prompt, request.mode);
  } catch (error) {
    if (!(error instanceof RuleTimeoutError)) throw error;
    // The file's pattern is at fault, not the run: the error names the rule.
    throw new SluiceError('SCRIPT_INVALID', { file: display, field: `rules.${error.ruleIndex}.match`, message: error.message });
  }
  if (!match) {
    const error = 'no scripted answer for this prompt';
    ctx.output(`${error} (script ${display})\n`, 'stderr');
    return { status: 'error', exitCode: 1, text: '', durationMs: elapsed(), error };
  }
  const position = match.sequenceKey === undefined ? 0 : await takeSequencePosition(kernel, source.path, match.sequenceKey);
  const reply = asObject(replyAt(match.replies, position));
  const which = match.ruleIndex < 0 ? 'default' : `rules[${match.ruleIndex}]`;
  ctx.transcript.write(
    `--- script ${display}: ${which}${match.sequenceKey === undefined ? '' : ` reply ${Math.min(position, match.replies.length - 1) + 1}/${match.replies.length} (call ${position + 1})`}\n`,
  );

  if (reply.delayMs) {
    const waited = await waitFor(reply.delayMs, ctx.timeoutMs, ctx.signal);
    if (waited === 'timeout') return { status: 'timeout', exitCode: null, text: '', durationMs: elapsed(), error: `timed out after ${ctx.timeoutMs} ms` };
    if (waited === 'cancelled') return { status: 'cancelled', exitCode: null, text: '', durationMs: elapsed(), error: 'cancelled' };
  }
  if (ctx.signal.aborted) return { status: 'cancelled', exitCode: null, text: '', durationMs: elapsed(), error: 'cancelled' };
  if (reply.status === 'timeout') {
    return {
      status: 'timeout',
      exitCode: null,
      text: '',
      durationMs: elapsed(),
      error: reply.error === undefined ? 'scripted timeout' : substitute(reply.error, match.captures),
    };
  }

  if (reply.files && Object.keys(reply.files).length > 0) {
    if (request.mode !== 'write') {
      ctx.transcript.write(`--- script: analysis mode, ${Object.keys(reply.files).length} scripted file(s) not written\n`);
    } else {
      try {
        const written = await writeReplyFiles(kernel, request.cwd, reply.files, match.captures);
        ctx.transcript.write(written.map((f) => `--- script: wrote ${f}\n`).join(''));
      } catch (error) {
        if (!(error instanceof SluiceError) || error.code !== 'PATH_OUTSIDE_PROJECT') throw error;
        const message = `${which}: ${error.detail.replace(` ${request.cwd}`, ' the working directory')}`;
        ctx.output(`${message}\n`, 'stderr');
        return { status: 'error', exitCode: 1, text: '', durationMs: elapsed(), error: message };
      }
    }
  }

  const text = substitute(reply.text ?? '', match.captures);
  const json = reply.json === undefined ? undefined : substituteJson(reply.json, match.captures);
  if (text !== '') ctx.output(text.endsWith('\n') ? text : `${text}\n`, 'stdout');
  if (json !== undefined) ctx.output(`${JSON.stringify(json)}\n`, 'stdout');
  const common = { text, ...(json === undefined ? {} : { json }), durationMs: elapsed() };
  if (reply.status === 'error') {
    const error = reply.error === undefined ? 'scripted error' : substitute(reply.error, match.captures);
    ctx.output(`${error}\n`, 'stderr');
    return { status: 'error', exitCode: reply.exitCode ?? 1, ...common, error, ...(reply.transient ? { transient: true } : {}) };
  }
  return { status: 'ok', exitCode: reply.exitCode ?? 0, ...common };
}
