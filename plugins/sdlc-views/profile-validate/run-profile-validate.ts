import { dirname, join, resolve } from 'pathe';
import {
  isInside,
  isSluiceError,
  readDataText,
  SluiceError,
  type CommandContext,
  type CommandInput,
  type CommandOutcome,
  type Kernel,
} from '../../../core/index.ts';
import {
  COMPLIANCE_FRAMEWORKS,
  ProfileSchema,
  ComplianceFileSchema,
  bundledRegistryPath,
  findComplianceFile,
  readSdlcFile,
  createPhaseModel,
  type PhaseModel,
  PhaseRegistrySchema,
  complianceProblems,
  profileProblems,
  type SemanticProblem,
} from '../../sdlc/index.ts';
import { renderViolations } from './render-violations.ts';
import { yamlViolations, type ProfileValidation, type Violation, type YamlCheck } from './yaml-violations.ts';

export type { ProfileValidation } from './yaml-violations.ts';

const located = (check: YamlCheck<unknown>, file: string, problems: readonly SemanticProblem[]): Violation[] =>
  problems.map((p) => ({ file, path: p.path, ...check.locate(p.path), message: p.message }));

/** The registry the pack would run with: its own `phase-registry.yaml`, else the bundled one. */
async function packModel(kernel: Kernel, packDir: string): Promise<{ model?: PhaseModel; violations: Violation[] }> {
  const own = join(packDir, 'phase-registry.yaml');
  const path = (await kernel.host.stat(own)) ? own : bundledRegistryPath(kernel.host);
  try {
    const registry = await readSdlcFile(kernel.host, path, PhaseRegistrySchema, 'REGISTRY_INVALID', kernel.display(path));
    return { model: createPhaseModel(registry.value, kernel.display(path)), violations: [] };
  } catch (error) {
    if (!isSluiceError(error)) throw error;
    return { violations: [{ file: error.file ?? kernel.display(path), path: error.field ?? '', message: error.detail }] };
  }
}

/** One compliance file per listed framework (unknown framework names are the schema's finding). */
async function validateCompliance(
  kernel: Kernel,
  packDir: string,
  raw: unknown,
  profileCheck: YamlCheck<unknown>,
  profileFile: string,
  model: PhaseModel | undefined,
  checked: string[],
): Promise<Violation[]> {
  const out: Violation[] = [];
  const frameworks = (raw as { compliance?: { frameworks?: unknown } } | undefined)?.compliance?.frameworks;
  for (const [i, framework] of (Array.isArray(frameworks) ? frameworks : []).entries()) {
    if (framework === 'none' || !(COMPLIANCE_FRAMEWORKS as readonly unknown[]).includes(framework)) continue;
    // The pack's own compliance/, then the shared files a pack may lean on (as `sluice init` does).
    const path = await findComplianceFile(kernel.host, [packDir], framework as string);
    if (!path) {
      out.push({
        file: profileFile,
        path: `compliance.frameworks.${i}`,
        ...profileCheck.locate(`compliance.frameworks.${i}`),
        message: `framework ${framework} has no gate file: add compliance/${framework}-gates.yaml to the pack`,
      });
      continue;
    }
    const display = kernel.display(path);
    if (checked.includes(display)) continue;
    checked.push(display);
    const check = yamlViolations(await readDataText(kernel.host, path, { display }), ComplianceFileSchema, display, {
      quote: isInside(kernel.projectRoot, path),
    });
    out.push(...check.violations);
    if (check.raw !== undefined && model) out.push(...located(check, display, complianceProblems(check.raw, model)));
  }
  return out;
}

/**
 * `sluice profile validate PATH`: a profile file or a pack folder. Reports every violation once, each
 * with its YAML path and line: syntax, schema, then the rules the loaders check beyond the schema
 * (phases named exist, gate types are registered) and the compliance files the frameworks need.
 * PATH is only read, so it may be anywhere (a pack being written lives outside any project).
 */
export async function runProfileValidate(input: CommandInput, ctx: CommandContext): Promise<CommandOutcome> {
  const { kernel, host } = ctx;
  const full = resolve(ctx.cwd, String(input.args[0]));
  const info = await host.stat(full);
  if (!info) throw new SluiceError('FILE_NOT_FOUND', { file: kernel.display(full), message: 'no such profile file or pack folder' });
  const packDir = info.kind === 'dir' ? full : dirname(full);
  const profilePath = info.kind === 'dir' ? join(full, 'profile.yaml') : full;
  const profileFile = kernel.display(profilePath);
  // PATH may be anywhere; only a file inside the project may have values quoted in the violations.
  const check = yamlViolations(await readDataText(host, profilePath, { display: profileFile }), ProfileSchema, profileFile, {
    quote: isInside(kernel.projectRoot, profilePath),
  });
  const checked = [profileFile];
  const violations = [...check.violations];
  if (check.raw !== undefined) {
    const { model, violations: registryViolations } = await packModel(kernel, packDir);
    violations.push(...registryViolations);
    if (model) violations.push(...located(check, profileFile, profileProblems(check.raw, model, kernel)));
    violations.push(...(await validateCompliance(kernel, packDir, check.raw, check, profileFile, model, checked)));
  }
  // Grouped by file in the order read, then by line: the order an editor walks them.
  const order = (v: Violation) => checked.indexOf(v.file);
  violations.sort((a, b) => order(a) - order(b) || (a.line ?? 0) - (b.line ?? 0));
  const result: ProfileValidation = { valid: violations.length === 0, profile: profileFile, checked, violations };
  if (result.valid) return { exitCode: 0, data: result, human: renderViolations(result, ctx.io.style) };
  const error = new SluiceError('PROFILE_INVALID', { file: profileFile, message: `${violations.length} violation${violations.length === 1 ? '' : 's'}` });
  return { exitCode: error.exitCode, data: { ...result, error: error.toJSON() }, human: renderViolations(result, ctx.io.style) };
}
