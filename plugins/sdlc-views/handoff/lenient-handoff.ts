import * as v from 'valibot';
import { BlockerSchema, HandoffSectionSchema, NextActionSchema, SessionHandoffSchema, type SessionHandoff } from './session-handoff-schema.ts';

/** What a hook could use of a handoff file: every field that is valid, and a warning for each that is not. */
export interface LenientHandoff {
  handoff: HandoffFields;
  warnings: string[];
}

/** The fields the summary reads; any may be absent when the file lacks it or has it wrong. */
export interface HandoffFields {
  sections: SessionHandoff['sections'];
  session_number?: SessionHandoff['session_number'];
  overall_status?: SessionHandoff['overall_status'];
  last_updated?: SessionHandoff['last_updated'];
  next_actions?: SessionHandoff['next_actions'];
  blockers?: SessionHandoff['blockers'];
  context_for_next_session?: SessionHandoff['context_for_next_session'];
}

const LISTS = { sections: HandoffSectionSchema, next_actions: NextActionSchema, blockers: BlockerSchema } as const;

const issueText = (issues: readonly v.BaseIssue<unknown>[]) => {
  const [first] = issues;
  const path = first?.path?.map((p) => String(p.key)).join('.');
  return `${path ? `${path}: ` : ''}${first?.message ?? 'invalid'}`;
};

/**
 * Reads a session handoff field by field for the session-start hook, where losing the whole context
 * over one bad field helps nobody: each top-level field is checked on its own, list entries one by
 * one (a bad section is left out, the others counted), and every field left out is named in a warning.
 * A missing `$schema` is warned about, not fatal; `phase` other than "build" (the reference's own
 * template still says `"phase": 4`, from before the Build loop had its id) is read as the Build loop.
 */
export function readHandoffLeniently(raw: unknown, display: string): LenientHandoff {
  const warnings: string[] = [];
  const fields: Record<string, unknown> = { sections: [] };
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { handoff: { sections: [] }, warnings: [`${display} is not a JSON object; nothing in it was used`] };
  }
  const doc = raw as Record<string, unknown>;
  const shape = SessionHandoffSchema.entries as Record<string, v.GenericSchema>;
  for (const [key, schema] of Object.entries(shape)) {
    const present = Object.prototype.hasOwnProperty.call(doc, key);
    if (key === '$schema') {
      if (!present) warnings.push(`${display} has no "$schema" (expected "session-handoff-v1"); read as session-handoff-v1`);
      else if (doc.$schema !== 'session-handoff-v1')
        warnings.push(`${display}: $schema is ${JSON.stringify(doc.$schema)}, not "session-handoff-v1"; read as v1`);
      continue;
    }
    if (key === 'phase') {
      const why = doc.phase === 4 ? ' (the reference template still writes 4, the number the Build loop had before it became "build")' : '';
      if (present && doc.phase !== 'build')
        warnings.push(
          `${display}: phase is ${JSON.stringify(doc.phase)}, but the handoff belongs to the Build loop, whose id is "build"${why}; read as "build"`,
        );
      continue;
    }
    if (!present) continue;
    if (key in LISTS) {
      if (!Array.isArray(doc[key])) {
        warnings.push(`${display}: ${key} is not a list; ignored`);
        continue;
      }
      const item = LISTS[key as keyof typeof LISTS];
      const kept: unknown[] = [];
      (doc[key] as unknown[]).forEach((entry, i) => {
        const r = v.safeParse(item, entry);
        if (r.success) kept.push(r.output);
        else warnings.push(`${display}: ${key}.${i}.${issueText(r.issues)}; entry ignored`);
      });
      fields[key] = kept;
      continue;
    }
    const r = v.safeParse(schema, doc[key]);
    if (r.success) fields[key] = r.output;
    else warnings.push(`${display}: ${key}: ${issueText(r.issues)}; ignored`);
  }
  return { handoff: fields as unknown as HandoffFields, warnings };
}
