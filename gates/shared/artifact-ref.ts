/** An artifact as gates receive it in their (JSON) input: resolved by the SDLC planner from the registry. */
export interface ArtifactRef {
  /** As the registry names it (`README.md`, `adrs/`). */
  name: string;
  /** Relative to the project root. */
  rel: string;
  /** A folder (`adrs/`) rather than a file. */
  dir: boolean;
  /** False when `required_for` excludes the project type: reported as INFO, not checked. */
  applies: boolean;
  note?: string;
}
