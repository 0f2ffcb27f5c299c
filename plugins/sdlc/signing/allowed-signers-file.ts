import { join, resolve } from 'pathe';
import { SluiceError, type Host, type Kernel } from '../../../core/index.ts';
import { parseAllowedSigners } from './allowed-signers.ts';

/** Who may sign this project's approvals, in git's allowed_signers format, frozen at init. */
export const ALLOWED_SIGNERS = 'allowed_signers';

export function allowedSignersPath(sdlcDir: string): string {
  return join(sdlcDir, ALLOWED_SIGNERS);
}

/**
 * The allowed_signers text to freeze into .sdlc/ at init: `--allowed-signers FILE` if given, else
 * the pack's own `allowed_signers`, else none. Checked line by line before anything is written.
 */
export async function allowedSignersToFreeze(kernel: Kernel, packDir: string, given?: string): Promise<string | undefined> {
  const { host } = kernel;
  const path = given ? resolve(kernel.projectRoot, given) : join(packDir, ALLOWED_SIGNERS);
  if (!given && !(await host.stat(path))) return undefined;
  const text = await readSigners(host, path, given ?? `${ALLOWED_SIGNERS} of the pack`);
  if (parseAllowedSigners(text, given ?? kernel.display(path)).length === 0) {
    throw new SluiceError('SIGNERS_INVALID', { file: given ?? kernel.display(path), message: 'the allowed_signers file lists no key' });
  }
  return text;
}

async function readSigners(host: Host, path: string, display: string): Promise<string> {
  const info = await host.stat(path);
  if (!info) throw new SluiceError('FILE_NOT_FOUND', { file: display, message: `${display} does not exist` });
  return host.readText(path, { maxBytes: 256 * 1024 });
}
