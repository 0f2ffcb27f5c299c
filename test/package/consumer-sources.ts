/** The files a third party writes against the packed package: plugins, an embedding script, and what the root entry must not export. */

export const TS_GATE = `import { gatePlugin, defineGate, type GateResult } from 'sluice';
import { profileGateInput } from 'sluice/sdlc';
import * as v from 'valibot';

const filePresent = defineGate({
  type: 'file-present', id: 'TS-file', description: 'a named file exists',
  input: profileGateInput({ file: v.string() }),
  async check(input, { host }): Promise<GateResult[]> {
    const ok = (await host.stat(\`\${input.projectRoot}/\${input.file}\`)) !== null;
    return [{ gate: input.id, artifact: input.file, passed: ok, message: ok ? 'present' : \`\${input.file} is missing\`, severity: input.severity ?? 'MUST' }];
  },
});

export default gatePlugin(filePresent, { name: 'ts-gates' });
`;

export const TS_DELEGATE = `import { cliDelegatePlugin, runCliProcess, processFailure, createLineSplitter } from 'sluice/delegates';
import type { DelegateAttempt } from 'sluice';
import * as v from 'valibot';

export default cliDelegatePlugin({
  name: 'upper',
  description: 'tr a-z A-Z over the prompt',
  defaultCommand: 'tr',
  settingsSchema: v.object({}),
  async run(request, ctx, command): Promise<DelegateAttempt> {
    let lines = 0;
    const split = createLineSplitter(() => lines++, 1024);
    const p = await runCliProcess({ command, args: ['a-z', 'A-Z'], cwd: request.cwd, input: request.prompt, onLine: (l) => split.push(new TextEncoder().encode(l + '\\n')) }, ctx);
    return processFailure('tr', p, ctx.timeoutMs) ?? { status: 'ok', exitCode: p.exitCode, text: p.stdout.text.trim(), durationMs: p.durationMs };
  },
});
`;

export const TS_HOOK = `import { definePlugin, type BeforeAdvanceEvent } from 'sluice';
import type { PhaseAdvancedEvent } from 'sluice/sdlc';

export default definePlugin({
  name: 'ts-hooks',
  setup(ctx) {
    ctx.hook('phase:beforeAdvance', (event: BeforeAdvanceEvent) => (event.to === '1' && !process.env.TICKET ? 'phase 1 needs a TICKET' : undefined));
    ctx.hook('phase:advanced', (event: PhaseAdvancedEvent) => void event.entry);
  },
});
`;

/** A plugin written against the root entry alone: a command, a gate and its own error codes. */
export const ROOT_ONLY = `import { definePlugin, defineCommand, defineGate, defineErrorCodes, SluiceError, isSluiceError, ExitCode } from 'sluice';
import type { GateResult, CommandOutcome, Host } from 'sluice';
import * as v from 'valibot';

const codes = defineErrorCodes('root-only', { ROOT_ONLY_BROKEN: { exit: ExitCode.blocked, title: 'broken', hint: 'do not call it' } });
type RootOnlyCodes = typeof codes;
declare module 'sluice' {
  interface ErrorCodes extends RootOnlyCodes {}
}
const exists = async (host: Host, path: string) => (await host.stat(path)) !== null;

const rootOnlyCommand = defineCommand({
  name: 'root-only', summary: 'fails on purpose',
  async run(): Promise<CommandOutcome> {
    try { throw new SluiceError('ROOT_ONLY_BROKEN', { message: 'on purpose' }); } catch (e) { if (isSluiceError(e)) throw e; }
    return { exitCode: 0, data: null, human: 'unreachable' };
  },
});

// A description: its codes (with its prefix), its command (loaded when run) and its gate are fields.
export default definePlugin({
  name: 'root-only',
  errorPrefix: 'ROOT',
  errorCodes: codes,
  commands: { 'root-only': { load: async () => rootOnlyCommand } },
  gates: [
    defineGate({
      type: 'root-only', id: 'ROOT', description: 'a README exists',
      input: v.object({ projectRoot: v.string(), id: v.string() }),
      async check(input, { host }): Promise<GateResult[]> {
        const ok = await exists(host, \`\${input.projectRoot}/README.md\`);
        return [{ gate: input.id, passed: ok, message: ok ? 'ok' : 'no README', severity: 'SHOULD' }];
      },
    }),
  ],
});
`;

/** A program that embeds sluice: the host and kernel side, from `sluice/kernel`. */
export const KERNEL_SCRIPT = `import { createKernel, createMemoryHost, trustEverything, sha256Hex, type Kernel } from 'sluice/kernel';
import plugin from './root-only.js';

const kernel: Kernel = await createKernel({ host: createMemoryHost(), projectRoot: '/p', plugins: [plugin], trust: trustEverything });
console.log(JSON.stringify({ gates: kernel.gates.names(), commands: kernel.commands.names(), hash: sha256Hex('x').length }));
`;

/** Names that belong to the host and CLI side (`sluice/kernel`), never to the plugin API. */
export const KERNEL_SIDE = [
  'createKernel',
  'trustEverything',
  'createWorkspaceTrust',
  'sshFindPrincipals',
  'sshSign',
  'hmacSha256Hex',
  'sha256Hex',
  'createLocalQueue',
  'createStateStore',
  'createJournaledStore',
  'createMemoryHost',
  'loadConfig',
  'configSubjects',
  'bwrapArgs',
];
