import { journaledStateUpdate } from '../state/journaled-state-update.ts';
import { relative, resolve } from 'pathe';
import { SluiceError, type Kernel } from '../../../core/index.ts';
import { parseAllowedSigners } from '../signing/allowed-signers.ts';
import { ComplianceFileSchema } from '../profile/compliance-schema.ts';
import { ProfileSchema } from '../profile/profile-schema.ts';
import { checksumOf, expectedChecksums, frozenKey } from '../project/frozen-files.ts';
import { assertProjectExists, type SdlcProject } from '../project/open-project.ts';
import { sdlcPaths, type SdlcPaths } from '../project/project-paths.ts';
import { resolveSigner, signedUpdate, type SignOption } from '../signing/sign-transition.ts';
import type { SdlcState } from '../state/state-schema.ts';
import { sdlcStateFile } from '../state/state-file.ts';
import { readSdlcFile } from '../project/read-sdlc-file.ts';
import { PhaseRegistrySchema } from '../registry/registry-schema.ts';
import type { HistoryEntry } from '../state/history-schema.ts';
import { phaseKey } from '../state/phase-id.ts';
import { confirmer } from './confirmer.ts';
import { refreezeState } from './transitions.ts';

export interface RefreezeOptions {
  /** Paths as given (relative to the working folder). */
  files: string[];
  reason: string;
  signedBy?: string;
  /** `--sign [key]`: sign the re-freeze with the person's SSH key. */
  sign?: SignOption;
  cwd: string;
}

export interface RefreezeReport {
  entry: HistoryEntry;
  /** checksum null: the file was removed and is no longer frozen. */
  files: { file: string; previous: string | null; checksum: string | null }[];
}

/** allowed_signers must still list at least one key in git's format. */
async function readSigners(kernel: Kernel, full: string, key: string): Promise<string> {
  const text = await kernel.host.readText(full, { maxBytes: 256 * 1024 });
  if (parseAllowedSigners(text, key).length === 0) throw new SluiceError('SIGNERS_INVALID', { file: key, message: 'the allowed_signers file lists no key' });
  return text;
}

/**
 * What signing a re-freeze needs. Whether a signature is required cannot be read from the profile
 * being re-frozen (an edit could drop the requirement), so it is required when either the profile on
 * disk asks for signed approvals or the project froze an allowed_signers file at init.
 */
async function signingContext(kernel: Kernel, project: { paths: SdlcPaths; state: SdlcState }, expected: Map<string, string>): Promise<SdlcProject> {
  let requires = expected.has('.sdlc/allowed_signers');
  try {
    const profile = await readSdlcFile(kernel.host, project.paths.profile, ProfileSchema, 'PROFILE_INVALID', kernel.display(project.paths.profile));
    requires ||= (profile.value.sluice as { require_signed_approvals?: boolean } | undefined)?.require_signed_approvals === true;
  } catch {
    // An unreadable profile cannot lift the requirement; the frozen allowed_signers decides.
  }
  return {
    ...project,
    profile: { sluice: { require_signed_approvals: requires } },
    profileDisplay: kernel.display(project.paths.profile),
  } as unknown as SdlcProject;
}

/** The schema a frozen file must still match, by its place in .sdlc/ (allowed_signers: its own format). */
function schemaFor(key: string) {
  if (key === '.sdlc/allowed_signers') return 'allowed_signers' as const;
  if (key === '.sdlc/profile.yaml') return { schema: ProfileSchema, code: 'PROFILE_INVALID' as const };
  if (key === '.sdlc/phase-registry.yaml') return { schema: PhaseRegistrySchema, code: 'REGISTRY_INVALID' as const };
  if (/^\.sdlc\/compliance\/[^/]+-gates\.yaml$/.test(key)) return { schema: ComplianceFileSchema, code: 'COMPLIANCE_INVALID' as const };
  return undefined;
}

/**
 * `sluice refreeze FILE... --reason TEXT`: a person accepts the current bytes of frozen files. Each
 * file must be a frozen file (profile, registry, compliance) and still match its schema; the new
 * checksums go into an append-only history entry with who and why, and `gate`/`next` run again.
 */
export async function refreezeFiles(kernel: Kernel, o: RefreezeOptions): Promise<RefreezeReport> {
  const reason = o.reason.trim();
  if (!reason) throw new SluiceError('USAGE', { field: '--reason', message: 'a reason is required: it is recorded in history with the new checksum' });
  if (o.files.length === 0) throw new SluiceError('USAGE', { field: 'FILE', message: 'name at least one frozen file, e.g. .sdlc/profile.yaml' });
  // Only the state is needed: the profile being re-frozen may name gate types of a plugin not loaded here.
  const paths = sdlcPaths(kernel.projectRoot);
  await assertProjectExists(kernel, paths);
  const stateFile = sdlcStateFile(paths.state);
  const project = { root: kernel.projectRoot, paths, state: await kernel.store.read(stateFile) };
  const expected = expectedChecksums(project.state);
  const files: RefreezeReport['files'] = [];
  for (const given of o.files) {
    const full = resolve(o.cwd, given);
    const rel = relative(project.root, full);
    const key = rel.startsWith('..') ? undefined : frozenKey(project.paths, full);
    const kind = key ? schemaFor(key) : undefined;
    if (!key || !kind) {
      throw new SluiceError('USAGE', {
        field: 'FILE',
        message: `${given} is not a frozen file; frozen files are .sdlc/profile.yaml, .sdlc/phase-registry.yaml, .sdlc/compliance/<framework>-gates.yaml and .sdlc/allowed_signers`,
      });
    }
    const previous = expected.get(key) ?? null;
    // A frozen file removed on purpose (a framework the profile no longer lists) stops being frozen.
    if (previous !== null && !(await kernel.host.stat(full))) {
      files.push({ file: key, previous, checksum: null });
      continue;
    }
    const text = kind === 'allowed_signers' ? await readSigners(kernel, full, key) : (await readSdlcFile(kernel.host, full, kind.schema, kind.code, key)).text;
    files.push({ file: key, previous, checksum: checksumOf(text) });
  }
  const signing = await signingContext(kernel, project, expected);
  const signer = await resolveSigner(kernel, signing, o.sign);
  const at = kernel.host.now().toISOString();
  const confirmedBy = confirmer(kernel.host, o.signedBy ?? signer?.principal);
  const phase = phaseKey(project.state.current_phase);
  const input = { phase, at, files: Object.fromEntries(files.map((f) => [f.file, f.checksum])), reason, confirmedBy };
  const write = await signedUpdate(kernel, signing, signer, `re-freezing ${files.map((f) => f.file).join(', ')}`, (state) => refreezeState(state, input));
  const { after } = await journaledStateUpdate(kernel, paths, (state) => write(state), {
    purpose: `sluice refreeze ${files.map((f) => f.file).join(' ')} (phase ${phase})`,
  });
  return { entry: after.history[after.history.length - 1], files };
}
