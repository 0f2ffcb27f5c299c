import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * An org profile pack with its own gate plugin, as a third party writes one: `profile.yaml` (the
 * starter profile plus a `type: acme-license` gate) lists `plugins: [./gates/acme-gate.ts]`, a
 * TypeScript plugin that imports only from `sluice` (and valibot, for its input schema) and declares its error codes.
 */
export const ACME_GATE_TS = `import { definePlugin, defineErrorCodes, defineGate, SluiceError, type GateResult } from 'sluice';
import * as v from 'valibot';

const acmeErrors = defineErrorCodes('acme-pack', {
  ACME_LICENSE_UNREADABLE: { exit: 1, title: 'the licence list cannot be read', hint: 'make LICENSES.md a file' },
});
type AcmeErrors = typeof acmeErrors;
declare module 'sluice' {
  interface ErrorCodes extends AcmeErrors {}
}

// What a profile entry passes (projectRoot, phase, id, severity) and the one \`with:\` key it takes.
const LicenseInput = v.strictObject({
  projectRoot: v.string(),
  phase: v.string(),
  id: v.string(),
  severity: v.optional(v.picklist(['MUST', 'SHOULD', 'MAY'])),
  file: v.optional(v.string()),
});

// What it provides is data: its codes (carrying its prefix, ACME_) and its gate type.
export default definePlugin({
  name: 'acme-pack',
  errorPrefix: 'ACME',
  errorCodes: acmeErrors,
  gates: [
    defineGate({
      type: 'acme-license',
      id: 'ACME-license',
      description: 'third-party licences are recorded',
      input: LicenseInput,
      async check(input, { host }): Promise<GateResult[]> {
        const name = input.file ?? 'LICENSES.md';
        const found = await host.stat(\`\${input.projectRoot}/\${name}\`);
        if (found?.kind === 'dir') throw new SluiceError('ACME_LICENSE_UNREADABLE', { message: \`\${name} is a folder\` });
        const ok = found !== null;
        return [{ gate: input.id, artifact: name, passed: ok, message: ok ? 'acme licences recorded' : \`acme: \${name} is missing\`, severity: input.severity ?? 'MUST' }];
      },
    }),
  ],
});
`;

/** A second pack plugin claiming the first one's prefix and code: loading it must be refused, naming both. */
export const COLLIDING_GATE_MJS = `import { definePlugin } from 'sluice';
export default definePlugin({
  name: 'acme-clash',
  errorPrefix: 'ACME',
  errorCodes: { ACME_LICENSE_UNREADABLE: { exit: 1, title: 'mine now', hint: 'none' } },
});
`;

/** Writes the pack into `dir` from the bundled starter profile; `plugins` are its `sluice.plugins` files. */
export async function writeAcmePack(
  dir: string,
  repo: string,
  plugins: Record<string, string> = { './gates/acme-gate.ts': ACME_GATE_TS },
  gateType = 'acme-license',
): Promise<void> {
  const starter = await readFile(join(repo, 'plugins/sdlc/packs/starter/profile.yaml'), 'utf8');
  const profile = starter.replace(/^(\s*profile_id:\s*).*$/m, '$1acme');
  await mkdir(dir, { recursive: true });
  for (const [spec, text] of Object.entries(plugins)) {
    const file = join(dir, spec);
    await mkdir(join(file, '..'), { recursive: true });
    await writeFile(file, text);
  }
  await writeFile(
    join(dir, 'profile.yaml'),
    `${profile}\nsluice:\n  plugins: [${Object.keys(plugins).join(', ')}]\n  gates: [{ id: ACME-license, type: ${gateType}, phases: [0], severity: MUST }]\n`,
  );
}
