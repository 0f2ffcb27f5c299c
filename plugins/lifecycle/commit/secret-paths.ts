import { basename } from 'pathe';
import { SluiceError, type CommandIO } from '../../../core/index.ts';
import type { CommitPreview } from './authorize-commit.ts';

/** File names that usually hold secrets: environment files, private keys, credential stores. */
const SECRET_NAMES: RegExp[] = [
  /^\.env(\..*)?$/i,
  /^\.?envrc$/i,
  /^id_(rsa|dsa|ecdsa|ed25519)(_sk)?$/,
  /\.(pem|key|p12|pfx|jks|keystore|ppk|kdbx|asc|gpg)$/i,
  /^(credentials|credentials\.(json|ya?ml|toml|ini|xml)|\.git-credentials|\.netrc|_netrc|\.npmrc|\.pypirc|\.pgpass|\.htpasswd)$/i,
  /^(secrets?|\.secrets?)(\..*)?$/i,
  /^service[-_]?account.*\.json$/i,
  /^(commit-grant\.key|allowed_signers)$/,
];

export const looksSecret = (path: string): boolean => SECRET_NAMES.some((r) => r.test(basename(path)));

/**
 * A commit request that would commit a file that looks like a secret is refused, unless a person at a
 * terminal types each such path exactly (a yes/no is not enough: the name has to be read).
 */
export async function refuseSecretPaths(preview: CommitPreview, requestFile: string, io?: CommandIO): Promise<void> {
  const secret = preview.files.filter((f) => looksSecret(f.path) && f.status !== 'D').map((f) => f.path);
  if (secret.length === 0) return;
  if (io?.interactive && io.ask) {
    io.warn(io.style.yellow(`The commit for ${preview.slug} would include ${secret.length} file(s) that look like secrets:`));
    const unconfirmed: string[] = [];
    for (const path of secret) {
      const typed = await io.ask(`Type the path ${JSON.stringify(path)} to commit it (anything else leaves the commit undone): `);
      if (typed !== path) unconfirmed.push(path);
    }
    if (unconfirmed.length === 0) return;
    secret.splice(0, secret.length, ...unconfirmed);
  }
  throw new SluiceError('SECRET_PATH_REFUSED', {
    file: requestFile,
    field: 'paths',
    message: `${secret.join(', ')} look${secret.length === 1 ? 's' : ''} like a secret; not committed without a person confirming ${secret.length === 1 ? 'it' : 'each'} by name at a terminal`,
    data: { paths: secret, slug: preview.slug },
  });
}
