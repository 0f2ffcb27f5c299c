import { readdirSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import * as v from 'valibot';
import { readDataFile, type ErrorCode, type Kernel } from '../../core/index.ts';
import { SessionHandoffSchema } from '../../plugins/sdlc-views/handoff/session-handoff-schema.ts';
import { summarizeHandoff } from '../../plugins/sdlc-views/handoff/summarize-handoff.ts';
import { checkCompliance, checkProfile } from '../../plugins/sdlc/profile/check-profile.ts';
import { ComplianceFileSchema } from '../../plugins/sdlc/profile/compliance-schema.ts';
import { ProfileSchema } from '../../plugins/sdlc/profile/profile-schema.ts';
import { openProject } from '../../plugins/sdlc/project/open-project.ts';
import { readSdlcFile } from '../../plugins/sdlc/project/read-sdlc-file.ts';
import { createPhaseModel } from '../../plugins/sdlc/registry/phase-model.ts';
import { PhaseRegistrySchema, type PhaseRegistry } from '../../plugins/sdlc/registry/registry-schema.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';
import { scanSpecs } from '../../plugins/sdlc-views/specs/scan-specs.ts';
import { safeYamlCodec } from '../../plugins/sdlc/state/safe-yaml-codec.ts';
import { SdlcStateSchema } from '../../plugins/sdlc/state/state-schema.ts';
import { readStatusProject } from '../../plugins/sdlc-views/model/read-status-project.ts';
import type { NamedReader, ReaderSpec } from './fuzz-reader.ts';
import { repoFile, repoRoot, seedFile } from './repo-files.ts';

/** Every SDLC file reader and what it must accept or refuse (see fuzz-reader.ts). */
const host = createNodeHost();
const registry = repoFile('plugins/sdlc/assets/phase-registry.yaml');
const model = createPhaseModel(parseYaml(registry) as PhaseRegistry, 'phase-registry.yaml');
const starter = repoFile('plugins/sdlc/packs/starter/profile.yaml');
const enterprise = repoFile('plugins/sdlc/packs/enterprise/profile.yaml');
const frozen = { '.sdlc/phase-registry.yaml': registry, '.sdlc/profile.yaml': starter };
const specsDir = 'test/fixtures/sdlc-views/spec-repo/specs';

/** A frozen file as `openProject` and `init` read it (readSdlcFile), then the checks beyond its schema. */
function frozenFile<S extends v.GenericSchema>(
  schema: S,
  code: ErrorCode,
  check: (value: v.InferOutput<S>, kernel: Kernel, display: string) => void,
): ReaderSpec['read'] {
  return async (io) => {
    const kernel = await io.kernel();
    const display = kernel.display(io.path);
    const file = await readSdlcFile(io.host, io.path, schema, code, display);
    check(file.value, kernel, display);
    return file.value;
  };
}

/** What every reader of state.yaml shares: the file, the frozen files beside it, its error codes and its schema. */
const stateYaml = {
  file: '.sdlc/state.yaml',
  format: 'yaml',
  fixtures: frozen,
  codes: ['STATE_CORRUPT', 'STATE_INVALID', 'FILE_TOO_LARGE', 'PHASE_UNKNOWN'],
  valid: (value: unknown) => v.is(SdlcStateSchema, value),
} satisfies Partial<ReaderSpec>;

export const sdlcReaders: NamedReader[] = [
  {
    name: 'state.yaml (opening a project: schema, registry phases, one active phase)',
    spec: {
      ...stateYaml,
      seeds: [seedFile('sdlc', 'state-fresh.yaml'), repoFile('test/fixtures/sdlc-views/report-project/.sdlc/state.yaml')],
      rewrite: { codec: safeYamlCodec, schema: SdlcStateSchema },
      read: async (io) => (await openProject(await io.kernel())).state,
    },
  },
  {
    name: 'state.yaml as `sluice status` reads it (state and registry only)',
    spec: {
      ...stateYaml,
      seeds: [seedFile('sdlc', 'state-fresh.yaml')],
      runs: 500,
      read: async (io) => (await readStatusProject(await io.kernel())).state,
    },
  },
  {
    name: 'profile.yaml (schema, phases and gate types it names)',
    spec: {
      file: '.sdlc/profile.yaml',
      format: 'yaml',
      seeds: [starter, enterprise],
      codes: ['STATE_CORRUPT', 'PROFILE_INVALID', 'GATE_TYPE_UNKNOWN', 'FILE_TOO_LARGE'],
      read: frozenFile(ProfileSchema, 'PROFILE_INVALID', (value, kernel, display) => checkProfile(value, model, kernel, display)),
      valid: (value) => v.is(ProfileSchema, value),
    },
  },
  {
    name: 'compliance/<framework>-gates.yaml (schema, phases, unique ids)',
    spec: {
      file: '.sdlc/compliance/soc2-gates.yaml',
      format: 'yaml',
      seeds: ['enterprise/compliance/soc2-gates.yaml', 'compliance/hipaa-gates.yaml', 'compliance/gdpr-gates.yaml'].map((f) =>
        repoFile('plugins/sdlc/packs', f),
      ),
      codes: ['STATE_CORRUPT', 'COMPLIANCE_INVALID', 'FILE_TOO_LARGE'],
      read: frozenFile(ComplianceFileSchema, 'COMPLIANCE_INVALID', (value, _kernel, display) => checkCompliance(value, model, display)),
      valid: (value) => v.is(ComplianceFileSchema, value),
    },
  },
  {
    name: 'phase-registry.yaml (schema, unique ids, slugs and orders, one terminal phase last)',
    spec: {
      file: '.sdlc/phase-registry.yaml',
      format: 'yaml',
      seeds: [seedFile('sdlc', 'phase-registry-small.yaml'), registry],
      runs: 600,
      codes: ['STATE_CORRUPT', 'REGISTRY_INVALID', 'FILE_TOO_LARGE'],
      read: frozenFile(PhaseRegistrySchema, 'REGISTRY_INVALID', (value, _kernel, display) => void createPhaseModel(value, display)),
      valid: (value) => v.is(PhaseRegistrySchema, value),
    },
  },
  {
    name: 'session-handoff.json (`sluice handoff`)',
    spec: {
      file: '.sdlc/artifacts/build/session-handoff.json',
      format: 'json',
      seeds: [repoFile('test/fixtures/sdlc-views/session-handoff.json')],
      codes: ['STATE_CORRUPT', 'STATE_INVALID', 'FILE_TOO_LARGE'],
      read: async (io) =>
        summarizeHandoff(await readDataFile(io.host, io.path, SessionHandoffSchema, { display: '.sdlc/artifacts/build/session-handoff.json' })),
      valid: (value) => typeof (value as { line?: unknown }).line === 'string',
    },
  },
  {
    name: 'spec frontmatter (`sluice specs`: a bad spec is reported in the backlog, never thrown)',
    spec: {
      file: 'specs/0001-fuzz.md',
      format: 'markdown',
      frontmatter: true,
      real: true,
      seeds: readdirSync(`${repoRoot}/${specsDir}`)
        .filter((n) => /^000[1-6].*\.md$/.test(n))
        .map((n) => repoFile(specsDir, n)),
      vocabulary: [
        '---',
        '...',
        'spec: 0001',
        'name: Login',
        'status: in-progress',
        'risk: high',
        'spec: [1, 2]',
        'name: &n x',
        'status: *n',
        '# Title',
        '__proto__: {a: 1}',
        'status: done',
      ],
      codes: [],
      read: async (io) => (await scanSpecs(host, io.root)).find((s) => s.file === 'specs/0001-fuzz.md'),
      valid: (value) => {
        const s = value as Record<string, unknown> | undefined;
        if (!s || s.file !== 'specs/0001-fuzz.md') return false;
        return typeof s.error === 'string' || ['spec', 'name', 'status', 'risk'].every((k) => s[k] === undefined || typeof s[k] === 'string');
      },
    },
  },
];
