import { join } from 'pathe';
import type { LifecycleContext } from '../lifecycle-context.ts';
import type { Fingerprint, WorkflowState } from '../state/workflow-state-schema.ts';
import type { Stage } from '../transition-table.ts';
import { sameFingerprint } from '../workspace/workspace-fingerprint.ts';

export type ArtifactHashes = Record<string, string>;

const MAX_HASHED = 64 * 1024 * 1024;

/** SHA-256 of each artifact a verdict was read from (paths relative to the project); 'missing' when gone. */
export async function hashArtifacts(lc: LifecycleContext, files: readonly (string | null | undefined)[]): Promise<ArtifactHashes> {
  const out: ArtifactHashes = {};
  for (const file of [...new Set(files.filter((f): f is string => typeof f === 'string' && f !== '' && !f.includes(':')))].sort()) {
    out[file] = await hashOne(lc, file);
  }
  return out;
}

async function hashOne(lc: LifecycleContext, file: string): Promise<string> {
  try {
    return lc.host.sha256(await lc.host.readBytes(join(lc.root, file), { maxBytes: MAX_HASHED }));
  } catch {
    return 'missing';
  }
}

/** Artifacts whose bytes are no longer what a recorded result was read from. */
export async function changedArtifacts(lc: LifecycleContext, recorded: ArtifactHashes | undefined): Promise<string[]> {
  const changed: string[] = [];
  for (const [file, hash] of Object.entries(recorded ?? {})) if ((await hashOne(lc, file)) !== hash) changed.push(file);
  return changed;
}

const sameArtifacts = (a: ArtifactHashes, b: ArtifactHashes) => {
  const ka = Object.keys(a).sort();
  return ka.length > 0 && ka.join('\0') === Object.keys(b).sort().join('\0') && ka.every((k) => a[k] === b[k]);
};

/**
 * Why new evidence for `stage` is stale, or undefined. A stage that a reroute sent back must produce
 * new evidence: byte-identical artifacts from before the reroute (a round-0 review PASS offered again in
 * a repair round) describe the old code. Implement's evidence (the plan's task list) may legitimately stay
 * the same, so for it the code must have changed too.
 */
export function staleEvidence(state: WorkflowState, stage: Stage, artifacts: ArtifactHashes, fingerprint: Fingerprint | null): string | undefined {
  const prior = state.results[stage];
  if (!prior?.artifacts || !sameArtifacts(prior.artifacts, artifacts)) return undefined;
  const reroute = state.reroutes.findLast((r) => r.route.includes(stage) && r.at >= prior.at);
  if (!reroute) return undefined;
  if (stage === 'implement' && !sameFingerprint(prior.fingerprint, fingerprint)) return undefined;
  const files = Object.keys(artifacts).join(', ');
  return `${files} ${Object.keys(artifacts).length === 1 ? 'is' : 'are'} byte-identical to the evidence recorded at ${prior.at}, before the ${reroute.kind} reroute at ${reroute.at} sent ${stage} back${stage === 'implement' ? ', and the code has not changed since' : ''}; run ${stage} again`;
}

/** A verdict's record gains the hashes of the artifacts it was read from. */
export function withArtifacts(state: WorkflowState, stage: Stage, artifacts: ArtifactHashes, at: string): WorkflowState {
  const record = state.results[stage];
  if (!record || record.at !== at || Object.keys(artifacts).length === 0) return state;
  return { ...state, results: { ...state.results, [stage]: { ...record, artifacts } } };
}
