import type * as v from 'valibot';
import { SluiceError } from '../errors/sluice-error.ts';
import type { Host } from '../host/host.ts';
import { yamlCodec } from '../store/codec.ts';
import { parseDataText, validateData } from '../store/read-data-file.ts';
import { splitFrontmatter } from '../text/frontmatter.ts';

/** A prompt sluice ships: markdown with YAML frontmatter (checked against its schema) and a `{{placeholder}}` body. */
export interface BundledPrompt<M> {
  meta: M;
  body: string;
  file: string;
}

/** One read per file and process; a failed read is forgotten, so the next call reports it again. */
const cache = new Map<string, Promise<BundledPrompt<unknown>>>();

/**
 * Loads `host.asset(...parts)` (e.g. `['skills', 'lifecycle', 'plan.md']`), the one loader for every
 * workflow's prompts. A file without frontmatter, or whose frontmatter does not match `schema`, is
 * STATE_INVALID naming the file.
 */
export function loadBundledPrompt<S extends v.GenericSchema>(host: Host, parts: readonly string[], schema: S): Promise<BundledPrompt<v.InferOutput<S>>> {
  const file = host.asset(...parts);
  let pending = cache.get(file);
  if (!pending) {
    pending = readBundledPrompt(host, file, schema);
    pending.catch(() => cache.delete(file));
    cache.set(file, pending);
  }
  return pending as Promise<BundledPrompt<v.InferOutput<S>>>;
}

async function readBundledPrompt<S extends v.GenericSchema>(host: Host, file: string, schema: S): Promise<BundledPrompt<v.InferOutput<S>>> {
  const split = splitFrontmatter(await host.readText(file));
  if (!split) throw new SluiceError('STATE_INVALID', { file, message: 'prompt has no YAML frontmatter' });
  return { meta: validateData(schema, parseDataText(split.yaml, yamlCodec, file), file), body: split.body, file };
}

/** Fills `{{name}}` placeholders in one pass (inserted text is never re-scanned); a name without a value is a bug. */
export function fillPlaceholders(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_all, name: string) => {
    const value = values[name];
    if (value === undefined) throw new SluiceError('INTERNAL', { message: `prompt placeholder {{${name}}} has no value` });
    return String(value);
  });
}
