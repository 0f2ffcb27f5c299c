import { isAbsolute, resolve } from 'pathe';
import { readDataFile, SluiceError, type DelegateRequest, type DelegateSettings, type Host, type Kernel } from '../../core/index.ts';
import { DelegateScriptSchema, type DelegateScript } from './script-schema.ts';

export const SCRIPT_ENV = 'SLUICE_DELEGATE_SCRIPT';

export interface ScriptSource {
  /** Absolute path of the script file. */
  path: string;
  /** Where the path came from, for error messages. */
  from: 'extra.script' | 'delegates.script.file' | typeof SCRIPT_ENV;
}

/**
 * The script file for a run, in order: the request's `extra.script`, config `delegates.script.file`,
 * env SLUICE_DELEGATE_SCRIPT. Relative paths are taken from the project root. Scripts are read-only
 * input, so a path outside the project (a bundled demo script) is allowed.
 */
export function resolveScriptSource(
  projectRoot: string,
  host: Host,
  settings: DelegateSettings,
  request?: Pick<DelegateRequest, 'extra'>,
): ScriptSource | undefined {
  const fromRequest = request?.extra?.script;
  if (fromRequest !== undefined && (typeof fromRequest !== 'string' || fromRequest === '')) {
    throw new SluiceError('USAGE', { field: 'extra.script', message: 'extra.script must be a path to a delegate script file' });
  }
  const candidates: [unknown, ScriptSource['from']][] = [
    [fromRequest, 'extra.script'],
    [settings.file, 'delegates.script.file'],
    [host.env(SCRIPT_ENV), SCRIPT_ENV],
  ];
  for (const [value, from] of candidates) {
    if (value === undefined || value === '') continue;
    if (typeof value !== 'string') throw new SluiceError('CONFIG_INVALID', { field: from, message: `${from} must be a path` });
    return { path: isAbsolute(value) ? value : resolve(projectRoot, value), from };
  }
  return undefined;
}

/** Reads and validates a script; syntax and schema problems are SCRIPT_INVALID naming the file and field. */
export async function loadScript(kernel: Kernel, source: ScriptSource): Promise<DelegateScript> {
  const display = kernel.display(source.path);
  try {
    return await readDataFile(kernel.host, source.path, DelegateScriptSchema, { display });
  } catch (error) {
    if (error instanceof SluiceError && (error.code === 'STATE_CORRUPT' || error.code === 'STATE_INVALID')) {
      throw new SluiceError('SCRIPT_INVALID', { file: display, field: error.field, message: error.detail, data: error.data, cause: error });
    }
    if (error instanceof SluiceError && error.code === 'FILE_NOT_FOUND') {
      throw new SluiceError('FILE_NOT_FOUND', { file: display, message: `delegate script (from ${source.from}) does not exist`, cause: error });
    }
    throw error;
  }
}

export function noScriptError(): SluiceError {
  return new SluiceError('DELEGATE_UNAVAILABLE', {
    field: 'delegates.script.file',
    message: `the script delegate has no script file: pass extra.script, set delegates.script.file in sluice.config or ${SCRIPT_ENV}`,
  });
}
