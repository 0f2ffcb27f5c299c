import * as v from 'valibot';
import { PhaseIdSchema } from '../state/phase-id.ts';
import { ProjectTypeSchema } from '../state/state-schema.ts';

/** A relative path with no `..` segment and no absolute start; escapes are also refused at resolution. */
const RelativePath = v.pipe(
  v.string(),
  v.minLength(1),
  v.check(
    (p) => !p.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(p) && !p.split(/[\\/]/).includes('..'),
    'path must stay inside its folder (no absolute path, no ..)',
  ),
);

/** A required or optional artifact: a bare path (in the phase folder) or an object saying where it lives and for which project types. */
export const ArtifactEntrySchema = v.pipe(
  v.union([
    RelativePath,
    v.looseObject({
      path: v.pipe(RelativePath, v.description('File, or folder when it ends with /.')),
      root: v.optional(
        v.pipe(
          v.picklist(['repo', 'phase']),
          v.description('repo: relative to the project root (the real README.md); phase (default): .sdlc/artifacts/<slug>/.'),
        ),
      ),
      required_for: v.optional(v.pipe(v.array(ProjectTypeSchema), v.description('Only required for these project types; others skip it.'))),
    }),
  ]),
  v.description('An artifact: "file.md", "folder/", or {path, root: repo|phase, required_for: [types]}.'),
);

/** An exit condition: an artifact that must exist and be complete (G1 + G2), or a prose question a person answers (G7). */
export const ExitConditionSchema = v.pipe(
  v.union([
    v.looseObject({ artifact: RelativePath, check: v.literal('exists_and_complete') }),
    v.strictObject({ check: v.pipe(v.string(), v.minLength(1), v.description('A prose condition: a manual judgement.')) }),
  ]),
  v.description('{artifact, check: exists_and_complete} or a prose {check: "..."}.'),
);

export const PhaseDefinitionSchema = v.looseObject({
  id: PhaseIdSchema,
  slug: v.pipe(
    v.string(),
    v.regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'slug must be one folder name (letters, digits, . _ -)'),
    v.description('Artifact folder under .sdlc/artifacts/; never derived from the id.'),
  ),
  order: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('Sequence position; the next phase is order + 1, never id + 1.')),
  name: v.pipe(v.string(), v.minLength(1)),
  display: v.optional(v.string()),
  description: v.optional(v.string()),
  definition: v.optional(v.string()),
  skills: v.optional(v.looseObject({ primary: v.optional(v.array(v.string())), secondary: v.optional(v.array(v.string())) })),
  entry_gate: v.optional(v.looseObject({ conditions: v.optional(v.array(v.string())) })),
  exit_gate: v.optional(v.looseObject({ conditions: v.optional(v.array(ExitConditionSchema)) })),
  artifacts: v.optional(v.looseObject({ required: v.optional(v.array(ArtifactEntrySchema)), optional: v.optional(v.array(ArtifactEntrySchema)) })),
  terminal: v.optional(v.pipe(v.boolean(), v.description('The final phase: `sluice next` reports the project complete.'))),
  continuous: v.optional(v.pipe(v.boolean(), v.description('The Build loop: G3-metrics and the spec backlog run here.'))),
});

/** `phase-registry.yaml` (version "2.0"): phases, their order, exit gates and artifacts. */
export const PhaseRegistrySchema = v.pipe(
  v.looseObject({
    version: v.string(),
    phases: v.pipe(v.array(PhaseDefinitionSchema), v.minLength(1)),
  }),
  v.description('phase-registry.yaml: phase definitions, order, exit gates and artifacts.'),
);

export type PhaseRegistry = v.InferOutput<typeof PhaseRegistrySchema>;
export type PhaseDefinition = v.InferOutput<typeof PhaseDefinitionSchema>;
export type ArtifactEntry = v.InferOutput<typeof ArtifactEntrySchema>;
export type ExitCondition = v.InferOutput<typeof ExitConditionSchema>;
