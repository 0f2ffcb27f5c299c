import { join } from 'pathe';
import { compareText, quietIO, realPathInside, SluiceError, type Kernel } from '../../core/index.ts';

export interface ReportResource {
  uri: string;
  name: string;
  description: string;
  mimeType: string;
}

/** The dashboards, rendered on each read from the files as they are now (what the command prints for people). */
const VIEWS = [
  { name: 'status', command: 'status', description: 'the project dashboard (`sluice status`)' },
  { name: 'audit', command: 'audit', description: 'gate effectiveness and signatures (`sluice audit`)' },
  { name: 'specs', command: 'specs', description: 'the spec backlog (`sluice specs`)' },
  { name: 'lifecycle', command: 'lifecycle status', description: 'the requirements and their stages (`sluice lifecycle status`)' },
  { name: 'tune', command: 'tune status', description: 'the skill-tuning runs (`sluice tune status`)' },
] as const;

const VIEW_URI = 'sluice://view/';
const FILE_URI = 'sluice://report/';
/** A report is a page or a markdown file: more than this is not one, and is not read. */
const MAX_REPORT_BYTES = 8 << 20;

const MIME: Record<string, string> = { html: 'text/html', md: 'text/markdown', svg: 'image/svg+xml' };
const mimeOf = (name: string) => MIME[name.slice(name.lastIndexOf('.') + 1).toLowerCase()];

/** Report files written so far: `sluice report`'s pages in .sdlc/reports/ and each tune run's final report and chart. */
async function reportFiles(kernel: Kernel): Promise<string[]> {
  const { host, projectRoot } = kernel;
  const files: string[] = [];
  const listFiles = async (rel: string) => {
    const dir = join(projectRoot, rel);
    if ((await host.stat(dir))?.kind !== 'dir') return [];
    return (await host.listDir(dir)).filter((e) => e.kind === 'file' && mimeOf(e.name) !== undefined).map((e) => `${rel}/${e.name}`);
  };
  files.push(...(await listFiles('.sdlc/reports')));
  const runs = join(projectRoot, '.sluice/runs');
  if ((await host.stat(runs))?.kind === 'dir') {
    for (const run of await host.listDir(runs)) {
      if (run.kind !== 'dir' || !run.name.startsWith('skill-tune-')) continue;
      files.push(...(await listFiles(`.sluice/runs/${run.name}`)).filter((f) => /\/(final-report\.md|score-chart\.svg)$/.test(f)));
    }
  }
  return files.sort(compareText);
}

/** Every resource the server offers now: the views, then the report files that exist. */
export async function listReportResources(kernel: Kernel): Promise<ReportResource[]> {
  const views = VIEWS.filter((view) => kernel.commands.has(view.command)).map((view) => ({
    uri: `${VIEW_URI}${view.name}`,
    name: view.name,
    description: view.description,
    mimeType: 'text/plain',
  }));
  const files = (await reportFiles(kernel)).map((rel) => ({ uri: `${FILE_URI}${rel}`, name: rel, description: `report file ${rel}`, mimeType: mimeOf(rel)! }));
  return [...views, ...files];
}

/**
 * One resource's text. A view is its command's human output, in plain text; a report is a file the
 * list offers (so a URI naming anything else, `../` included, is unknown), read inside the project.
 */
export async function readReportResource(kernel: Kernel, uri: string, signal: AbortSignal): Promise<{ text: string; mimeType: string }> {
  if (uri.startsWith(VIEW_URI)) {
    const view = VIEWS.find((v) => `${VIEW_URI}${v.name}` === uri);
    if (view && kernel.commands.has(view.command)) {
      const lines: string[] = [];
      try {
        const outcome = await kernel.commands
          .require(view.command)
          .run({ args: [], options: {} }, { kernel, host: kernel.host, cwd: kernel.projectRoot, io: quietIO(lines), signal });
        return { text: [...lines, outcome.human ?? ''].join('\n'), mimeType: 'text/plain' };
      } catch (error) {
        if (!(error instanceof SluiceError)) throw error;
        return { text: `error ${error.message}\nhint: ${error.hint}\n`, mimeType: 'text/plain' };
      }
    }
  }
  if (uri.startsWith(FILE_URI)) {
    const rel = uri.slice(FILE_URI.length);
    if ((await reportFiles(kernel)).includes(rel)) {
      const path = await realPathInside(kernel.host, kernel.projectRoot, rel, 'report');
      return { text: await kernel.host.readText(path, { maxBytes: MAX_REPORT_BYTES }), mimeType: mimeOf(rel)! };
    }
  }
  throw new SluiceError('MCP_RESOURCE_UNKNOWN', { message: `no sluice resource ${JSON.stringify(uri.slice(0, 200))}` });
}
