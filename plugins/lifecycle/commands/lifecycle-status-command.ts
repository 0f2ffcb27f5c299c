import { LifecycleStatusOutput } from './lifecycle-outputs.ts';
import { join } from 'pathe';
import { defineCommand, toSluiceError } from '../../../core/index.ts';
import { createLifecycleContext } from '../lifecycle-context.ts';
import { loadRequirement } from '../journal/journaled-state.ts';
import { readWorkflowState } from '../record-stage.ts';
import { adoptedView } from '../recovery/adopt-claims.ts';
import { foreignHead } from '../commit/commit-history.ts';
import { judgeFreshness, loadRecordedFingerprints } from '../recovery/freshness.ts';
import { checkSlug } from '../slug.ts';
import { WORKFLOWS_DIR } from '../state/workflow-state-file.ts';
import { stateLine, summarizeState } from './state-summary.ts';

export const lifecycleStatusCommand = defineCommand({
  name: 'lifecycle status',
  summary: 'show the workflow state of requirements (all, or the ones named)',
  args: ['[slugs...]'],
  examples: ['sluice lifecycle status', 'sluice lifecycle status parse-durations --json'],
  output: LifecycleStatusOutput,
  async run({ args }, ctx) {
    const lc = createLifecycleContext(ctx.kernel, ctx.cwd);
    const named = ((args[0] as string[] | undefined) ?? []).map(checkSlug);
    const slugs =
      named.length > 0
        ? named
        : (await lc.host.listDir(join(lc.root, WORKFLOWS_DIR)).catch(() => []))
            .filter((e) => e.kind === 'file' && e.name.endsWith('.json'))
            .map((e) => e.name.slice(0, -5))
            .sort();
    const current = await lc.fingerprint();
    const recorded = await loadRecordedFingerprints(lc);
    const s = ctx.io.style;
    const rows = await Promise.all(
      slugs.map(async (slug) => {
        try {
          const loaded = await loadRequirement(lc, slug);
          const state =
            loaded?.provenance === 'journal' || loaded?.provenance === 'cache-behind'
              ? loaded.state
              : loaded?.provenance === 'unjournaled'
                ? await adoptedView(lc, slug, loaded)
                : await readWorkflowState(lc, slug);
          const anchoring = loaded!.anchoring;
          const records = {
            journal: loaded!.provenance,
            entries: loaded!.journal?.entries.length ?? 0,
            anchor: anchoring.state,
            ...(anchoring.state === 'verified' && anchoring.from > 0 ? { unanchoredThrough: anchoring.from } : {}),
          };
          // The recorded commit must still be in HEAD's history: an amended or replaced one is not the requirement's any more.
          const foreign = state.status === 'COMMITTED' && state.commit ? await foreignHead(lc, state.commit.sha) : undefined;
          const note =
            records.journal === 'unjournaled'
              ? s.yellow(' · no journal yet: claims re-read from the artifacts (history starts at the next write)')
              : anchoring.state === 'unanchored'
                ? s.yellow(` · journal ${records.entries} entries, unanchored here (no anchor on this machine: a person checks it and runs \`sluice anchor\`)`)
                : s.dim(
                    ` · journal ${records.entries} entries, verified${anchoring.from > 0 ? ` from entry ${anchoring.from + 1} (entries 1–${anchoring.from} unanchored here until \`sluice anchor\`)` : ''}`,
                  );
          const unrecognized = foreign
            ? s.red(
                `\n${''.padEnd(25)}COMMIT_UNRECOGNIZED: HEAD ${foreign.slice(0, 12)} does not contain ${state.commit!.sha.slice(0, 12)}, the commit sluice made; a person decides`,
              )
            : '';
          return {
            data: {
              ...summarizeState(slug, state),
              freshness: judgeFreshness(state, current, recorded),
              records,
              ...(foreign ? { commitUnrecognized: { head: foreign, commit: state.commit!.sha } } : {}),
            },
            line: `${stateLine(s, slug, state)}${note}${unrecognized}`,
            ...(foreign ? { exit: 1 } : {}),
          };
        } catch (error) {
          if (named.length > 0) throw error;
          const e = toSluiceError(error);
          return { data: { slug, error: e.toJSON() }, line: `${slug.padEnd(24)} ${s.red(e.message)}`, exit: e.exitCode };
        }
      }),
    );
    const exitCode = Math.max(0, ...rows.map((r) => ('exit' in r ? (r.exit ?? 0) : 0)));
    return {
      exitCode,
      data: { requirements: rows.map((r) => r.data) },
      human: rows.length === 0 ? s.dim('no requirements yet: sluice lifecycle start SLUG --goal "..."') : rows.map((r) => r.line).join('\n'),
    };
  },
});
