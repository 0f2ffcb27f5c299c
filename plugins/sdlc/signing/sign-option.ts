/** `--sign [key]` as every signing SDLC command offers it (refreeze adds when it is required). */
export const SIGN_OPTION = {
  flags: '--sign [key]',
  description:
    'sign with your SSH key (ssh-keygen -Y sign; default SLUICE_SIGNING_KEY, git user.signingkey, ~/.ssh/id_ed25519); checked against .sdlc/allowed_signers',
} as const;
