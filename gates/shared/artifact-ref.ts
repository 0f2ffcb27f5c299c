import * as v from 'valibot';

/** An artifact as gates receive it in their (JSON) input: resolved by the SDLC planner from the registry. */
export const ArtifactRefSchema = v.object({
  /** As the registry names it (`README.md`, `adrs/`). */
  name: v.string(),
  /** Relative to the project root. */
  rel: v.string(),
  /** A folder (`adrs/`) rather than a file. */
  dir: v.boolean(),
  /** False when `required_for` excludes the project type: reported as INFO, not checked. */
  applies: v.boolean(),
  note: v.optional(v.string()),
});

export type ArtifactRef = v.InferOutput<typeof ArtifactRefSchema>;
