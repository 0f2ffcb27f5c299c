import * as v from 'valibot';

/**
 * The --json documents are an interface, described like the file formats: each command states the
 * fields of its document (`output` on its definition), `sluice schema NAME-output` exports them as
 * JSON Schema, and the tests validate every command's real output against them.
 *
 * Conventions (README "JSON output"): one document per run; `ok` first, true exactly when the exit
 * code is 0; field names in camelCase; a list of things holds objects, never bare ids; a record read
 * from a file (a state, a history entry) is shown as the file stores it, under its file format's schema.
 */

/** A command's document: `ok` and the command's own fields, nothing else. */
export function commandOutput<const E extends v.ObjectEntries>(entries: E) {
  return v.strictObject({ ok: v.boolean(), ...entries });
}

/** What every command prints under --json when it fails with an error (exit 1, 2 or 3). */
export const ErrorOutputSchema = v.strictObject({
  ok: v.literal(false),
  error: v.strictObject({
    code: v.pipe(v.string(), v.regex(/^[A-Z][A-Z0-9_]*$/)),
    message: v.string(),
    exitCode: v.picklist([1, 2, 3]),
    hint: v.string(),
    file: v.optional(v.string()),
    field: v.optional(v.string()),
    plugin: v.optional(v.string()),
    hook: v.optional(v.string()),
    data: v.optional(v.unknown()),
  }),
});

/** `lifecycle run` → `lifecycle-run-output`: the schema name `sluice schema` lists a command's output under. */
export const outputSchemaName = (command: string) => `${command.trim().split(/\s+/).join('-')}-output`;

/** Everything a command may print under --json: its own document, or the error document. */
export const commandDocumentSchema = (output: v.GenericSchema): v.GenericSchema => v.union([output, ErrorOutputSchema]);

/**
 * Every --json document has one envelope: `ok` (true exactly when the exit code is 0) first, then the
 * command's fields; errors are `{ ok: false, error }`. A command whose document is not an object (a
 * list, a schema's value) puts it under `result`. The CLI and the MCP server answer with the same one.
 */
export function jsonEnvelope(outcome: { exitCode: number; data: unknown }): Record<string, unknown> {
  const ok = outcome.exitCode === 0;
  const data = outcome.data;
  if (typeof data === 'object' && data !== null && !Array.isArray(data)) return { ok, ...(data as Record<string, unknown>) };
  return data === undefined ? { ok } : { ok, result: data };
}
