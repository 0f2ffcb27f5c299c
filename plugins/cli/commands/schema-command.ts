import { defineCommand, SluiceError, compareText } from '../../../core/index.ts';

export const schemaCommand = defineCommand({
  name: 'schema',
  summary: 'print the JSON Schema of a file format, generated from its valibot schema',
  args: ['[name]'],
  options: [{ flags: '--list', description: 'list the schema names' }],
  examples: ['sluice schema --list', 'sluice schema config > sluice.config.schema.json'],
  async run({ args, options }, { kernel, io }) {
    const name = args[0] as string | undefined;
    if (options.list || name === undefined) {
      const list = kernel.schemas
        .entries()
        .map(({ value }) => ({ name: value.name, plugin: value.plugin, description: value.description }))
        .sort((a, b) => compareText(a.name, b.name));
      if (name === undefined && !options.list) throw new SluiceError('USAGE', { message: `name a schema: ${list.map((s) => s.name).join(', ')}` });
      return { exitCode: 0, data: { schemas: list }, human: list.map((s) => `${s.name.padEnd(20)} ${io.style.dim(s.description)}`).join('\n') };
    }
    const entry = kernel.schemas.require(name);
    const { toJsonSchema } = await import('@valibot/to-json-schema');
    const jsonSchema = {
      $id: `https://sluice.dev/schemas/${entry.name}.json`,
      title: entry.name,
      description: entry.description,
      ...toJsonSchema(entry.schema, { errorMode: 'ignore' }),
    };
    // Without --json the schema alone (to redirect into a file); with it, inside sluice's envelope.
    return { exitCode: 0, data: { name: entry.name, schema: jsonSchema }, human: JSON.stringify(jsonSchema, null, 2) };
  },
});
