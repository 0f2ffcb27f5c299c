import * as v from 'valibot';

/** The SSH signature of one history entry (`sluice next|skip|reenter --sign`). */
export const TransitionSignatureSchema = v.pipe(
  v.looseObject({
    principal: v.pipe(v.string(), v.minLength(1), v.description('Who signed: the principal .sdlc/allowed_signers lists for the key.')),
    fingerprint: v.optional(v.pipe(v.string(), v.description('SHA256 fingerprint of the signing key.'))),
    namespace: v.pipe(v.string(), v.description('ssh-keygen -Y namespace, "sluice".')),
    signature: v.pipe(
      v.string(),
      v.startsWith('-----BEGIN SSH SIGNATURE-----'),
      v.description("Armored SSH signature over the entry's statement (see `sluice audit`)."),
    ),
  }),
  v.description(
    'SSH signature of a transition: covers project, entry position, phases, approved gate ids, a hash of the gate results, the justification and the time.',
  ),
);

export type TransitionSignature = v.InferOutput<typeof TransitionSignatureSchema>;
