import { SluiceError } from '../../../core/index.ts';

/**
 * git's allowed_signers format (ssh-keygen(1), ALLOWED SIGNERS): one key a line,
 * `principals [options] keytype base64-key [comment]`; `#` comments and blank lines ignored.
 * Parsed only to check a file before sluice freezes it and to list who may sign; ssh-keygen itself
 * does the verifying.
 */
export interface AllowedSigner {
  principals: string[];
  options?: string;
  keyType: string;
  key: string;
  line: number;
}

const KEY_TYPE = /^(ssh-(ed25519|rsa|dss)|ecdsa-sha2-nistp(256|384|521)|sk-(ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com)(-cert-v01@openssh\.com)?$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** Splits on blanks, keeping double-quoted runs (`namespaces="git,sluice"`) whole. */
function tokens(line: string): string[] {
  return line.match(/(?:[^\s"]+|"[^"]*")+/g) ?? [];
}

/** Parses allowed_signers text; a malformed line is SIGNERS_INVALID naming the file and line. */
export function parseAllowedSigners(text: string, file: string): AllowedSigner[] {
  const out: AllowedSigner[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    const t = tokens(line);
    const typeAt = KEY_TYPE.test(t[1] ?? '') ? 1 : 2;
    const keyType = t[typeAt];
    const key = t[typeAt + 1];
    if (!keyType || !KEY_TYPE.test(keyType) || !key || !BASE64.test(key)) {
      throw new SluiceError('SIGNERS_INVALID', { file, field: `line ${index + 1}`, message: `line ${index + 1} is not "principals [options] keytype key"` });
    }
    const principals = t[0]!.replace(/^"|"$/g, '').split(',').filter(Boolean);
    out.push({ principals, ...(typeAt === 2 ? { options: t[1] } : {}), keyType, key, line: index + 1 });
  });
  return out;
}
