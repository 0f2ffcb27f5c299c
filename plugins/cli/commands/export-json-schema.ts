import { toJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import type { SchemaEntry } from '../../../core/index.ts';

/** A registered schema (loaded: `schemaOf`) as the JSON Schema `sluice schema NAME` prints (tests validate real outputs against it). */
export function exportJsonSchema(entry: SchemaEntry & { schema: v.GenericSchema }): Record<string, unknown> {
  return {
    $id: `https://sluice.dev/schemas/${entry.name}.json`,
    title: entry.name,
    description: entry.description,
    ...toJsonSchema(entry.schema, { errorMode: 'ignore' }),
  };
}
