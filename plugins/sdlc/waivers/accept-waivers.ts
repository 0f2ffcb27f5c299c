import { SluiceError, type Kernel } from '../../../core/index.ts';
import { runPhaseGates } from '../gating/run-phase-gates.ts';
import { openProject } from '../project/open-project.ts';
import { resolveSigner, signedUpdate, type SignOption } from '../signing/sign-transition.ts';
import type { AcceptedWaiver, HistoryEntry } from '../state/history-schema.ts';
import { phaseKey } from '../state/phase-id.ts';
import { confirmer } from '../transition/confirmer.ts';
import { acceptWaiversState } from '../transition/transitions.ts';
import { updateIfUnchanged } from '../transition/update-if-unchanged.ts';
import { waiversOfRun } from './waiver-records.ts';
import { waiverPolicy, waiverStandings } from './waiver-acceptance.ts';

export interface AcceptWaiversOptions {
  /** Waived files to accept, as the gate names them (or with the phase folder in front); all when empty. */
  files?: string[];
  /** Phase whose gate run is read (default: the current phase). */
  phase?: string;
  reason?: string;
  signedBy?: string;
  /** `--sign [key]`: sign the acceptance with the person's SSH key. */
  sign?: SignOption;
  signal?: AbortSignal;
}

export interface AcceptWaiversReport {
  phase: string;
  /** Waivers this run accepted. */
  accepted: AcceptedWaiver[];
  /** Waivers that already stood accepted (signed, when signing is required or asked for): nothing to add. */
  alreadyAccepted: AcceptedWaiver[];
  /** The history entry written; absent when there was nothing to accept. */
  entry?: HistoryEntry;
}

/** Does FILE (as typed) name the waived file `w`, as the gate names it or under the phase folder? */
function names(given: string, w: AcceptedWaiver, phaseDir: string): boolean {
  const g = given.replace(/^\.\//, '').replace(/\/+$/, '');
  return g === w.file || g === `${phaseDir}/${w.file}`;
}

/**
 * `sluice waivers accept [FILE...]`: a person accepts the `WAIVED:` lines the phase's gates find now
 * (run fresh, as `next` does, so what is accepted is what the files say, not a stored copy). Each
 * waiver is recorded with its gate, file, who, why, markers and digest in one append-only history
 * entry with who accepted and why, signed with --sign like an approval.
 */
export async function acceptWaivers(kernel: Kernel, o: AcceptWaiversOptions = {}): Promise<AcceptWaiversReport> {
  const project = await openProject(kernel, { verifyFrozen: true });
  const phase = o.phase === undefined ? project.model.require(project.state.current_phase) : project.model.require(o.phase, { field: '--phase' });
  const key = phaseKey(phase.id);
  const signer = await resolveSigner(kernel, project, o.sign);
  const run = await runPhaseGates(kernel, project, phase, o.signal, { waiversAsFound: true });
  const found = waiversOfRun(run.results);
  const files = o.files ?? [];
  const phaseDir = project.paths.artifactDirRel(phase.slug);
  const unknown = files.filter((f) => !found.some((w) => names(f, w, phaseDir)));
  if (unknown.length > 0) {
    throw new SluiceError('USAGE', {
      field: 'FILE',
      message: `${unknown.join(', ')} ${unknown.length > 1 ? 'have' : 'has'} no waiver in phase ${key}; waived files: ${[...new Set(found.map((w) => w.file))].join(', ') || 'none'}`,
    });
  }
  const wanted = files.length ? found.filter((w) => files.some((f) => names(f, w, phaseDir))) : found;
  // Already accepted as strongly as this acceptance would be (signed, when signing) needs no new entry.
  const standing = waiverStandings(kernel, project, key, { acceptance: true, signed: signer !== undefined || waiverPolicy(project).signed });
  const accepted: AcceptedWaiver[] = [];
  const alreadyAccepted: AcceptedWaiver[] = [];
  for (const w of wanted) ((await standing(w)).accepted ? alreadyAccepted : accepted).push(w);
  if (accepted.length === 0) return { phase: key, accepted, alreadyAccepted };

  const at = kernel.host.now().toISOString();
  const confirmedBy = confirmer(kernel.host, o.signedBy ?? signer?.principal);
  const reason = o.reason?.trim() || `${accepted.length} waiver${accepted.length > 1 ? 's' : ''} accepted by ${confirmedBy}`;
  const input = { phase: key, at, waivers: accepted, reason, confirmedBy };
  const write = await signedUpdate(kernel, project, signer, `accepting waivers of phase ${key}`, (state) => acceptWaiversState(state, input));
  const expected = { current: phaseKey(project.state.current_phase), historyLength: project.state.history.length };
  const after = await updateIfUnchanged(kernel, project, expected, write, `sluice waivers accept (phase ${key})`);
  return { phase: key, accepted, alreadyAccepted, entry: after.history.at(-1) };
}
