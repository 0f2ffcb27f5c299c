import type { Host } from '../../../core/index.ts';

/** Who confirmed a transition: --signed-by when given, else the OS user, so history never says nobody. */
export function confirmer(host: Host, signedBy?: string): string {
  return signedBy?.trim() || host.env('SLUICE_USER') || host.env('USER') || host.env('USERNAME') || 'unknown';
}
