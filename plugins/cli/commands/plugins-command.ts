import { defineCommand, type Kernel, compareText } from '../../../core/index.ts';
import { PluginsOutput } from './cli-outputs.ts';

interface PluginsReport {
  plugins: { name: string; version?: string; enforce?: string; source: string; loadMs: number }[];
  gates: { type: string; id: string; plugin: string; description: string }[];
  delegates: { name: string; plugin: string; description: string; available: boolean; reason?: string }[];
  workflows: { name: string; plugin: string; description: string; commands: string[]; schemas: string[] }[];
  commands: { name: string; plugin: string; summary: string }[];
  hooks: { name: string; kind: string; observer: boolean; declaredBy: string; handlers: string[] }[];
  jobs: { name: string }[];
  schemas: { name: string; kind: 'file' | 'output'; plugin: string }[];
}

export async function collectPlugins(kernel: Kernel): Promise<PluginsReport> {
  const delegates = await Promise.all(
    kernel.delegates.entries().map(async ({ plugin, value }) => {
      const a = await value
        .available({ host: kernel.host, kernel, settings: kernel.config.delegates?.[value.name] ?? {} })
        .catch((e: unknown) => ({ ok: false, reason: String(e) }));
      return { name: value.name, plugin, description: value.description, available: a.ok, ...(a.reason ? { reason: a.reason } : {}) };
    }),
  );
  return {
    plugins: kernel.plugins.map((p) => ({ ...p })),
    gates: kernel.gates.entries().map(({ plugin, value }) => ({ type: value.type, id: value.id, plugin, description: value.description })),
    delegates,
    // A described workflow's commands and schemas are its plugin's `commands` and `schemas` fields.
    workflows: kernel.workflows
      .entries()
      .map(({ plugin, value }) => ({ name: value.name, plugin, description: value.description, commands: value.commands ?? [], schemas: value.schemas ?? [] })),
    commands: kernel.commands
      .entries()
      .map(({ plugin, value }) => ({ name: value.name, plugin, summary: value.summary }))
      .sort((a, b) => compareText(a.name, b.name)),
    hooks: kernel.hooks
      .list()
      .map((h) => ({ name: h.name, kind: h.kind, observer: h.observer, declaredBy: h.declaredBy, handlers: h.handlers.map((x) => x.plugin) })),
    jobs: kernel.queue.jobNames().map((name) => ({ name })),
    schemas: kernel.schemas.entries().map(({ value }) => ({ name: value.name, kind: value.kind ?? 'file', plugin: value.plugin })),
  };
}

export const pluginsCommand = defineCommand({
  name: 'plugins',
  summary: 'list loaded plugins, gate types, delegates, workflows, commands and hooks',
  output: PluginsOutput,
  async run(_input, { kernel, io }) {
    const r = await collectPlugins(kernel);
    const s = io.style;
    const lines: string[] = [];
    const section = (title: string, rows: string[]) => {
      lines.push(s.bold(title));
      lines.push(...(rows.length ? rows.map((row) => `  ${row}`) : [s.dim('  (none)')]));
      lines.push('');
    };
    section(
      'Plugins',
      r.plugins.map((p) => `${p.name}${p.version ? `@${p.version}` : ''}${p.enforce ? ` [${p.enforce}]` : ''} ${s.dim(`${p.source}, ${p.loadMs} ms`)}`),
    );
    section(
      'Gate types',
      r.gates.map((g) => `${g.type.padEnd(14)} ${g.id.padEnd(20)} ${s.dim(g.description)}`),
    );
    section(
      'Delegates',
      r.delegates.map((d) => `${d.name.padEnd(8)} ${d.available ? s.green('available') : s.yellow(`unavailable: ${d.reason ?? ''}`)} ${s.dim(d.description)}`),
    );
    section(
      'Workflows',
      r.workflows.map((w) => `${w.name.padEnd(12)} ${s.dim(w.description)}${w.commands.length ? s.dim(` (commands: ${w.commands.join(', ')})`) : ''}`),
    );
    section(
      'Commands',
      r.commands.map((c) => `${c.name.padEnd(20)} ${s.dim(c.summary)}`),
    );
    section(
      'Hooks',
      r.hooks.map(
        (h) =>
          `${h.name.padEnd(24)} ${h.kind}${h.observer ? ' (observer)' : ''} ${s.dim(`declared by ${h.declaredBy}; handlers: ${h.handlers.join(', ') || 'none'}`)}`,
      ),
    );
    return { exitCode: 0, data: r, human: lines.join('\n').trimEnd() };
  },
});
