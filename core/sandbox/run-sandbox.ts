import type { DelegateRequest } from '../delegate/contract.ts';
import type { Host } from '../host/host.ts';
import type { Kernel } from '../kernel/kernel-types.ts';
import { protectedUserFolders } from '../paths/user-folders.ts';
import { chooseSandbox, type SandboxMode, type SandboxUse } from './sandbox-choice.ts';
import { sandboxPolicy, type SandboxKind } from './sandbox-policy.ts';
import { sandboxedHost } from './sandboxed-host.ts';

/**
 * What of a sluice checkout a run must not replace: its code and bundled data (package.json `files`,
 * the sources it runs from, its node_modules). Not the whole folder: a checkout also holds test output
 * that tools in the run write (coverage of child processes).
 */
const INSTALLED = ['package.json', 'bin', 'dist', 'core', 'plugins', 'delegates', 'gates', 'skills', 'node_modules'];

/** An installed package is read-only as a whole (one mount); a checkout (with `.git`) by its code. */
async function installedPaths(host: Host): Promise<string[]> {
  return (await host.stat(host.asset('.git'))) ? INSTALLED.map((name) => host.asset(name)) : [host.asset()];
}

export interface RunSandbox {
  /** Undefined for a backend that starts no program. */
  use: SandboxUse | undefined;
  /** The host the backend gets: sandboxed when `use` is a kind. */
  wrap(host: Host): Host;
}

/** A backend that runs in sluice's own process (the script backend): nothing to put in a sandbox. */
export const IN_PROCESS: RunSandbox = { use: undefined, wrap: (h) => h };

/**
 * How the delegate runs of one kernel are sandboxed: `sandbox:` of the config or the CLI's `--sandbox`
 * (`kernel.sandbox`), the host's sandbox asked once, the `auto` notice given once per process.
 */
export function runSandbox(): (kernel: Kernel, request: DelegateRequest) => Promise<RunSandbox> {
  let kind: Promise<SandboxKind | null> | undefined;
  let installation: Promise<string[]> | undefined;
  let noticed = false;
  return async (kernel, request) => {
    const { host } = kernel;
    const mode: SandboxMode = kernel.sandbox ?? kernel.config.sandbox ?? 'auto';
    const found = mode === 'off' ? null : await (kind ??= host.sandboxKind?.() ?? Promise.resolve(null));
    const choice = chooseSandbox(mode, found);
    if (choice.notice && !noticed) {
      noticed = true;
      kernel.notice?.(choice.notice);
    }
    if (choice.use === 'off' || choice.use === 'unavailable') return { use: choice.use, wrap: (h) => h };
    const policy = sandboxPolicy({
      mode: request.mode,
      cwd: request.cwd,
      projectRoot: kernel.projectRoot,
      userFolders: protectedUserFolders(host.env, host.accountHome),
      installation: await (installation ??= installedPaths(host)),
      ...(request.readOnly ? { readOnly: request.readOnly } : {}),
    });
    return { use: choice.use, wrap: (h) => sandboxedHost(h, policy) };
  };
}
