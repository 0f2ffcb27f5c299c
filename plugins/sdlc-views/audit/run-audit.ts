import { resolve } from 'pathe';
import type { CommandContext, CommandInput, CommandOutcome, Style } from '../../../core/index.ts';
import {
  expectedChecksums,
  forgedProjectCacheEntries,
  type ForgedEntry,
  frozenDrift,
  openProject,
  type SdlcProject,
  sdlcStateFile,
  SdlcStateReadSchema,
  renderSignatures,
  signerLabel,
  verifyHistory,
  type SignatureAudit,
  waiverPolicy,
  describeRecords,
  type WaiverPolicy,
} from '../../sdlc/index.ts';
import { auditGates, compareAudits, type GateAudit } from '../model/gate-audit.ts';
import { renderAudit, renderComparison } from './render-audit.ts';

/** Names in the audit as signed or unverified, looked up by the transition's time. */
function labelFor(a: SignatureAudit): (at: string, name: string | null) => string {
  const byTime = new Map(a.entries.map((e) => [e.at, e]));
  return (at, name) => {
    const e = byTime.get(at);
    return e ? signerLabel({ ...e, claimed: name ?? e.claimed }) : `${name ?? 'unknown'} (unverified)`;
  };
}

/** Each waiver's acceptance with its verified signature, and whether it stands accepted under the profile's policy. */
function withCheckedAcceptances(a: GateAudit, signatures: SignatureAudit, policy: WaiverPolicy): GateAudit {
  const waivers = a.waivers.map((w) => {
    if (!w.acceptance) return { ...w, accepted: false };
    const check = signatures.entries[w.acceptance.index];
    const signature = check?.status ?? 'unsigned';
    const acceptance = { ...w.acceptance, signature, signer: check?.status === 'verified' ? check.signer : null };
    return { ...w, acceptance, accepted: !policy.signed || signature === 'verified' };
  });
  return { ...a, waivers, waiverPolicy: policy };
}

/**
 * `--compare OTHER`: another project's state.yaml, or the project folder holding it. It is the
 * user's explicit choice of a file to read (never written), so it may lie outside this project.
 */
async function readOtherState(ctx: CommandContext, other: string) {
  const full = resolve(ctx.cwd, other);
  const info = await ctx.host.stat(full);
  const path = info?.kind === 'dir' ? resolve(full, '.sdlc/state.yaml') : full;
  return ctx.kernel.store.read({ path, codec: sdlcStateFile(path).codec, schema: SdlcStateReadSchema });
}

/** The frozen files recorded for the project and any that no longer match (audit shows what gate/next refuse). */
async function frozenStatus(ctx: CommandContext, project: SdlcProject) {
  const files = [...expectedChecksums(project.state).keys()];
  const drift = await frozenDrift(ctx.host, project.paths, project.state);
  return { files, modified: drift.map((d) => ({ file: d.file, removed: d.actual === null })) };
}

function renderFrozen(f: Awaited<ReturnType<typeof frozenStatus>>, s: Style): string {
  if (f.files.length === 0)
    return `\n${s.bold('Frozen files')}\n${s.dim('  (no checksums recorded: the project predates them or was set up by another tool)')}`;
  const lines = ['', s.bold(`Frozen files (${f.files.length})`)];
  if (f.modified.length === 0) lines.push(`  ${s.green('intact')}: ${f.files.join(', ')}`);
  for (const m of f.modified)
    lines.push(`  ${s.red(m.removed ? 'REMOVED' : 'MODIFIED')} ${m.file}: gate and next refuse to run until it is restored or re-frozen`);
  return lines.join('\n');
}

function renderForged(forged: readonly ForgedEntry[], s: Style): string {
  if (forged.length === 0) return '';
  const lines = ['', s.bold(`Parse cache (${forged.length} forged)`)];
  for (const f of forged) lines.push(`  ${s.red('FORGED')} ${f.entry}: holds a value ${f.file} does not parse to; gate and next would judge it. Delete it`);
  return `${lines.join('\n')}\n`;
}

/** `sluice audit`: gate effectiveness and every human decision in the history `sluice next` wrote. */
export async function runAudit(input: CommandInput, ctx: CommandContext): Promise<CommandOutcome> {
  // A history that contradicts its journal is the audit's first finding (exit 1), not a refusal: the rest is shown too.
  const project = await openProject(ctx.kernel, { readOnly: true, reportRecords: true });
  const problem = project.records.problem;
  // Every signature is verified; a bad one (or an unsigned one the profile forbids) makes the audit exit 1.
  const signatures = await verifyHistory(ctx.kernel, project);
  // A forged parse-cache entry, like a bad signature, makes the audit exit 1.
  const forgedCache = (await forgedProjectCacheEntries(ctx.kernel, project)).map((f) => ({ ...f, file: ctx.kernel.display(f.file) }));
  const audit = {
    ...withCheckedAcceptances(auditGates(project.state), signatures, waiverPolicy(project)),
    frozen: await frozenStatus(ctx, project),
    forgedCache,
    records: problem
      ? { ok: false, problem: problem.toJSON() }
      : { ok: true, journal: project.records.provenance, entries: project.records.entries, anchor: project.records.anchoring.state },
  };
  const exitCode = signatures.problems > 0 || forgedCache.length > 0 || problem ? 1 : 0;
  const recordsLine = problem
    ? `\n${ctx.io.style.bold('Records')}\n  ${ctx.io.style.red(`${problem.code}: ${problem.message}`)}\n`
    : `\n${ctx.io.style.bold('Records')}\n  ${describeRecords(project.records)}\n`;
  // Under --json the human text is never printed: a long history's rendering (a line per decision) is not built next to the document.
  const own = ctx.io.json
    ? ''
    : `${recordsLine}${renderAudit(audit, ctx.io.style, labelFor(signatures))}\n${renderFrozen(audit.frozen, ctx.io.style)}\n${renderForged(forgedCache, ctx.io.style)}\n${renderSignatures(signatures, ctx.io.style)}`;
  const other = input.options.compare;
  if (typeof other !== 'string') return { exitCode, data: { ...audit, signatures }, human: own };
  const otherAudit = auditGates(await readOtherState(ctx, other));
  const comparison = compareAudits(audit, otherAudit);
  return {
    exitCode,
    data: { ...audit, signatures, compare: { project: otherAudit.project, audit: otherAudit, gates: comparison } },
    human: ctx.io.json ? '' : `${own}\n\n${renderComparison(audit, otherAudit, comparison, ctx.io.style)}`,
  };
}
