/**
 * How a person behind a transition is shown everywhere: the principal of a signature as "(signed)"
 * (`sluice audit` verifies it), any free-text name as "(unverified)", since anyone can type one.
 */
export function personLabel(name: string | null | undefined, signedPrincipal: string | null | undefined): string {
  return signedPrincipal ? `${signedPrincipal} (signed)` : `${name ?? 'unknown'} (unverified)`;
}
