import { defineCommand, SluiceError, compareText, schemaOf } from '../../../core/index.ts';
import { SchemaOutput } from './cli-outputs.ts';

export const schemaCommand = defineCommand({
  name: 'schema',
  summary: "print the JSON Schema of a file format or of a command's --json output, generated from its valibot schema",
  args: ['[name]'],
  options: [{ flags: '--list', description: 'list the schema names' }],
  output: SchemaOutput,
  examples: ['sluice schema --list', 'sluice schema config > sluice.config.schema.json', 'sluice schema gate-output'],
  async run({ args, options }, { kernel, io }) {
    const name = args[0] as string | undefined;
    if (options.list || name === undefined) {
      const list = kernel.schemas
        .entries()
        .map(({ value }) => ({ name: value.name, kind: value.kind ?? 'file', plugin: value.plugin, description: value.description }))
        .sort((a, b) => compareText(a.name, b.name));
      if (name === undefined && !options.list) throw new SluiceError('USAGE', { message: `name a schema: ${list.map((s) => s.name).join(', ')}` });
      const width = Math.max(...list.map((s) => s.name.length)) + 2;
      const section = (kind: string, title: string) => [
        io.style.bold(title),
        ...list.filter((s) => s.kind === kind).map((s) => `  ${s.name.padEnd(width)}${io.style.dim(s.description)}`),
      ];
      const human = [...section('file', 'File formats'), '', ...section('output', 'Command outputs (--json)')].join('\n');
      return { exitCode: 0, data: { schemas: list }, human };
    }
    const entry = kernel.schemas.require(name);
    const [{ exportJsonSchema }, schema] = await Promise.all([import('./export-json-schema.ts'), schemaOf(entry)]);
    const jsonSchema = exportJsonSchema({ ...entry, schema });
    // Without --json the schema alone (to redirect into a file); with it, inside sluice's envelope.
    return { exitCode: 0, data: { name: entry.name, schema: jsonSchema }, human: JSON.stringify(jsonSchema, null, 2) };
  },
});
