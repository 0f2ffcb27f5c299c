import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { referenceRoot, type ComplianceGate, type RegistryArtifact, type RegistryPhase } from './reference-plugin.ts';

/** How far a phase's artifacts are written: the reference's blank templates, half filled, all filled. */
export type FillStage = 'blank' | 'partial' | 'filled';
export const STAGES: FillStage[] = ['blank', 'partial', 'filled'];

/** A waiver in the reference's bold form, put on one blank artifact of the partial stage. */
export const WAIVER_LINE = '**WAIVED:** Dana Whitfield — no live carrier API to spike against on this engagement';

/** The template files for an artifact: `name.md` → one file; `adrs/` → the files of the template folder. */
function templateFiles(slug: string, a: RegistryArtifact): { rel: string; path: string }[] | undefined {
  for (const base of [join(referenceRoot, 'templates', 'phases', slug), join(referenceRoot, 'templates')]) {
    const path = join(base, a.name);
    if (!existsSync(path)) continue;
    if (!statSync(path).isDirectory()) return [{ rel: a.name, path }];
    return readdirSync(path)
      .filter((f) => statSync(join(path, f)).isFile())
      .map((f) => ({ rel: `${a.name.replace(/\/$/, '')}/${f}`, path: join(path, f) }));
  }
  return undefined;
}

/**
 * A filled version of a template: every marker either tool knows replaced by words, and the
 * phrases the compliance gates look for appended (a person who filled it in would have written them).
 */
export function fillText(template: string, phrases: readonly string[]): string {
  const filled = template
    .replace(/<!--\s*REQUIRED:([\s\S]*?)-->/g, (_m, what: string) => `Decided with the client: ${what.trim().replace(/\s+/g, ' ')}.`)
    .replace(/\$\{[^}\n]*\}/g, 'recorded value')
    .replace(/\[INSERT[^\]\n]*\]/g, 'inserted value')
    .replace(/\b(?:TODO|TBD|FIXME|PLACEHOLDER)\b/g, 'settled')
    .replace(/\[placeholder\]/gi, 'settled');
  return `${filled.trimEnd()}\n\n${phrases.length ? `Covers ${phrases.join(', ')}.\n` : 'Reviewed and complete.\n'}`;
}

const where = (project: string, slug: string, a: RegistryArtifact, rel: string) =>
  a.root === 'repo' ? join(project, rel) : join(project, '.sdlc', 'artifacts', slug, rel);

async function put(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, text);
}

/**
 * Writes one phase's required artifacts (those that apply to the project type) at a stage. Blank:
 * the reference template copied as is (an artifact without a template stays missing). Partial: the
 * first half filled, the rest blank, one blank one waived. Filled: all filled, plus whatever the
 * phase's compliance gates name. Returns what it wrote, for the failure messages.
 */
export async function writeStage(
  project: string,
  phase: RegistryPhase,
  stage: FillStage,
  projectType: string | null,
  compliance: readonly ComplianceGate[],
): Promise<string[]> {
  const mine = compliance.filter((g) => g.phase === phase.id);
  const phrases = [...new Set(mine.flatMap((g) => g.required_content ?? []))];
  const applies = phase.required.filter((a) => !a.requiredFor || projectType === null || a.requiredFor.includes(projectType));
  const half = Math.ceil(applies.length / 2);
  const wrote: string[] = [];
  let waived = false;
  for (const [i, a] of applies.entries()) {
    const files = templateFiles(phase.slug, a);
    const fill = stage === 'filled' || (stage === 'partial' && i < half);
    if (!files) {
      if (fill) {
        await put(where(project, phase.slug, a, a.name.endsWith('/') ? `${a.name}README.md` : a.name), fillText(`# ${a.name}\n`, phrases));
        wrote.push(`${a.name} (no template, filled)`);
      }
      continue;
    }
    for (const f of files) {
      const template = await readFile(f.path, 'utf8');
      let text = fill ? fillText(template, phrases) : template;
      if (stage === 'partial' && !fill && !waived && !a.name.endsWith('/')) {
        text = `${WAIVER_LINE}\n\n${text}`;
        waived = true;
      }
      await put(where(project, phase.slug, a, f.rel), text);
    }
    wrote.push(`${a.name} (${fill ? 'filled' : 'blank'})`);
  }
  if (stage === 'filled') {
    // A coverlet run's report, where `dotnet test --collect "XPlat Code Coverage"` leaves it.
    await put(join(project, COVERAGE_REPORT), cobertura(92));
    wrote.push(`${COVERAGE_REPORT} (92%)`);
    for (const g of mine) {
      if (!g.artifact || applies.some((a) => a.name === g.artifact)) continue;
      const rel = g.artifact.endsWith('/') ? `${g.artifact}README.md` : g.artifact;
      await put(join(project, '.sdlc', 'artifacts', phase.slug, rel), fillText(`# ${g.artifact}\n`, g.required_content ?? []));
      wrote.push(`${g.artifact} (for ${g.id})`);
    }
  }
  return wrote;
}

export const COVERAGE_REPORT = 'tests/App.Tests/TestResults/3f6c1d9e-5b7a-4c21-9e0f-2a8d4b6c7e10/coverage.cobertura.xml';

function cobertura(pct: number): string {
  const lines = Array.from({ length: 100 }, (_, i) => `<line number="${i + 1}" hits="${i < pct ? 3 : 0}"/>`).join('');
  return `<?xml version="1.0" encoding="utf-8"?>\n<coverage line-rate="${pct / 100}" lines-covered="${pct}" lines-valid="100" version="1.9"><packages><package name="App"><classes><class name="App.Handler" filename="src/App/Handler.cs"><lines>${lines}</lines></class></classes></package></packages></coverage>\n`;
}

/** Removes a phase's artifact folder contents (and the coverage report), so a stage starts from what it writes. */
export async function clearPhase(project: string, phase: RegistryPhase): Promise<void> {
  const dir = join(project, '.sdlc', 'artifacts', phase.slug);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  for (const a of phase.required.filter((x) => x.root === 'repo')) await rm(join(project, a.name), { recursive: true, force: true });
  await rm(join(project, 'tests'), { recursive: true, force: true });
}

/**
 * The frozen layer a team writes when it leaves a phase (`.sdlc/context/layers/phase<ID>-<name>.md`,
 * the reference's file naming), locking one metric and carrying a constraint forward.
 */
export async function writeFrozenLayer(project: string, phase: RegistryPhase): Promise<void> {
  const name = `phase${phase.id}-${phase.slug.replace(/^\d+-/, '')}.md`;
  const text = `# Phase ${phase.id} — Frozen Layer\n\n## Locked Metrics\n\n| Metric | Value | Source Artifact |\n|--------|-------|-----------------|\n| Team size | 4 | constraints.md |\n\n## Constraints Carried Forward\n\n- Runs in the client's own cloud tenancy.\n`;
  await put(join(project, '.sdlc', 'context', 'layers', name), text);
}
