import type { Host } from '../../../core/index.ts';

/** The OS sandbox sluice can put an AI CLI run in on this machine. */
export type SandboxKind = 'bubblewrap' | 'sandbox-exec';

export interface SandboxAvailability {
  kind: SandboxKind | null;
  /** Why there is none (or how the kind was found), in one line. */
  detail: string;
}

/**
 * The Host's own answer when it has one (`host.sandboxKind()`, from the OS sandbox runner in
 * host-node), else a minimal probe of our own: `sandbox-exec` where macOS has it, else a `bwrap`
 * that can actually start a namespace here (installed is not enough: a container may forbid user
 * namespaces). The probe is this file alone, so the host's detection can replace it.
 */
export async function sandboxAvailability(host: Host): Promise<SandboxAvailability> {
  const provided = (host as Host & { sandboxKind?: () => Promise<SandboxKind | null> }).sandboxKind;
  if (typeof provided === 'function') {
    const kind = await provided.call(host);
    return { kind, detail: kind ? `${kind} (as sluice runs AI CLIs in it)` : 'no OS sandbox on this machine' };
  }
  if (await host.isExecutable('/usr/bin/sandbox-exec')) return { kind: 'sandbox-exec', detail: 'sandbox-exec (macOS)' };
  const bwrap = await findOnPath(host, 'bwrap');
  if (!bwrap) return { kind: null, detail: 'bubblewrap (bwrap) is not installed' };
  const r = await host.spawn({ command: bwrap, args: ['--ro-bind', '/', '/', '--dev', '/dev', '--unshare-all', '--', 'true'], timeoutMs: 15_000 });
  if (r.exitCode === 0) return { kind: 'bubblewrap', detail: `bubblewrap (${bwrap})` };
  return { kind: null, detail: `${bwrap} is installed but cannot start a sandbox here (user namespaces off?)` };
}

async function findOnPath(host: Host, name: string): Promise<string | undefined> {
  for (const dir of (host.env('PATH') ?? '').split(':')) {
    if (dir !== '' && (await host.isExecutable(`${dir}/${name}`))) return `${dir}/${name}`;
  }
  return undefined;
}
