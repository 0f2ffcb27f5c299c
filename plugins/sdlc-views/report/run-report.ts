import { dirname, join } from 'pathe';
import { realPathInside, SluiceError, type CommandContext, type CommandInput, type CommandOutcome } from '../../../core/index.ts';
import { openProject, phaseKey } from '../../sdlc/index.ts';
import { collectReport } from './collect-report.ts';
import { phasePageName, renderIndexPage } from './index-page.ts';
import { removeOldPhasePage } from './old-page-names.ts';
import { renderPhasePage } from './phase-page.ts';
import { createMarkdownRenderer } from './render-markdown.ts';

export const DEFAULT_REPORT_DIR = '.sdlc/reports';

export interface ReportOutcome {
  /** Absolute paths written, the index first when there is one. */
  files: string[];
  /** Each phase's page: which phase, which file. */
  pages: { phase: string; file: string }[];
  index?: string;
}

async function write(ctx: CommandContext, path: string, text: string): Promise<void> {
  await ctx.host.mkdir(dirname(path));
  await ctx.host.writeAtomic(path, text);
}

/**
 * `sluice report`: self-contained HTML. `--phase ID` (default: the current phase) writes one page,
 * to `--out FILE` or `.sdlc/reports/<slug>-report.html`; `--all` writes every phase page and an index into
 * `--out DIR` (default `.sdlc/reports/`). A page earlier sluice wrote there as `<slug>.html` is removed
 * once its new page is written (see old-page-names.ts). Output paths must stay inside the project, symlinks included.
 */
export async function runReport(input: CommandInput, ctx: CommandContext): Promise<CommandOutcome> {
  const { phase: phaseOption, all, out } = input.options as { phase?: string; all?: boolean; out?: string };
  if (phaseOption !== undefined && all) throw new SluiceError('USAGE', { message: 'use either --phase ID or --all, not both' });
  const project = await openProject(ctx.kernel, { readOnly: true });
  const model = project.model;
  const selected = all
    ? model.phases
    : [model.require(phaseOption ?? project.state.current_phase, phaseOption === undefined ? { field: 'current_phase' } : {})];
  const ids = selected.map((p) => phaseKey(p.id));
  const data = await collectReport(ctx.kernel, project, ids);
  const md = await createMarkdownRenderer();
  const result: ReportOutcome = { files: [], pages: [] };
  if (all) {
    const dir = await realPathInside(ctx.host, ctx.kernel.projectRoot, out ?? DEFAULT_REPORT_DIR, '--out');
    result.index = join(dir, 'index.html');
    await write(ctx, result.index, renderIndexPage(data));
    result.files.push(result.index);
    for (const view of data.phases) {
      const path = join(dir, phasePageName(view.slug));
      await write(ctx, path, renderPhasePage(data, view, md, 'index.html'));
      await removeOldPhasePage(ctx.host, dir, view.slug);
      result.files.push(path);
      result.pages.push({ phase: view.id, file: path });
    }
  } else {
    const view = data.phases.find((p) => p.id === ids[0])!;
    const path = await realPathInside(ctx.host, ctx.kernel.projectRoot, out ?? join(DEFAULT_REPORT_DIR, phasePageName(view.slug)), '--out');
    await write(ctx, path, renderPhasePage(data, view, md));
    if (out === undefined) await removeOldPhasePage(ctx.host, dirname(path), view.slug);
    result.files.push(path);
    result.pages.push({ phase: view.id, file: path });
  }
  const shown = result.files.map((f) => `  ${ctx.kernel.display(f)}`);
  const head = all ? `Wrote the index and ${ids.length} phase pages:` : `Wrote the ${data.phases.find((p) => p.id === ids[0])!.display} report:`;
  return { exitCode: 0, data: result, human: [head, ...shown].join('\n') };
}
