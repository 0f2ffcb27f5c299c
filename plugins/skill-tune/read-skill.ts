import * as v from 'valibot';
import { basename, dirname, join } from 'pathe';
import { CodecError, HostNotFoundError, realPathInside, SluiceError, splitFrontmatter, yamlCodec, type Host, type Kernel } from '../../core/index.ts';
import { SKILL_ID } from './iteration-state-schema.ts';

/**
 * A skill is a folder holding SKILL.md: YAML frontmatter between `---` lines, then a markdown body.
 * `checkSkillText` is the one validity rule: it decides whether a skill may be tuned and whether an
 * improvement "left the skill invalid" (which rolls the improvement back).
 */
export const SKILL_FILE = 'SKILL.md';
const MAX_SKILL_BYTES = 1024 * 1024;

/** The frontmatter fields a skill must have; other keys (allowed-tools, version...) are kept as they are. */
export const SkillFrontmatterSchema = v.looseObject({
  name: v.pipe(v.string('name must be a string'), v.trim(), v.minLength(1, 'name must not be empty')),
  description: v.pipe(v.string('description must be a string'), v.trim(), v.minLength(1, 'description must not be empty')),
});

export interface SkillDocument {
  name: string;
  description: string;
  body: string;
}

export type SkillCheck = { ok: true; skill: SkillDocument } | { ok: false; field?: string; message: string };

/** Validates the text of a SKILL.md. Pure; never throws. */
export function checkSkillText(text: string): SkillCheck {
  const m = splitFrontmatter(text);
  if (!m) return { ok: false, field: 'frontmatter', message: 'SKILL.md must start with YAML frontmatter between --- lines' };
  let data: unknown;
  try {
    data = m.yaml.trim() === '' ? {} : yamlCodec.parse(m.yaml);
  } catch (error) {
    const where = error instanceof CodecError && error.line !== undefined ? `line ${error.line + 1}` : 'frontmatter';
    return { ok: false, field: where, message: `frontmatter is not valid YAML: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data))
    return { ok: false, field: 'frontmatter', message: 'frontmatter must be a YAML mapping' };
  const parsed = v.safeParse(SkillFrontmatterSchema, data);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const field = v.getDotPath(issue) ?? 'frontmatter';
    return { ok: false, field, message: issue.received === 'undefined' ? `frontmatter field ${field} is missing` : issue.message };
  }
  const { body } = m;
  if (body.trim() === '') return { ok: false, field: 'body', message: 'SKILL.md has no instructions after the frontmatter' };
  return { ok: true, skill: { name: parsed.output.name, description: parsed.output.description, body } };
}

/** Reads and checks `<dir>/SKILL.md`. A missing or unreadable file is a failed check, not an exception. */
export async function checkSkillFolder(host: Host, dir: string): Promise<SkillCheck & { text?: string }> {
  try {
    const text = await host.readText(join(dir, SKILL_FILE), { maxBytes: MAX_SKILL_BYTES });
    return { ...checkSkillText(text), text };
  } catch (error) {
    if (error instanceof HostNotFoundError) return { ok: false, field: SKILL_FILE, message: 'SKILL.md is missing' };
    return { ok: false, field: SKILL_FILE, message: error instanceof Error ? error.message : String(error) };
  }
}

export interface ResolvedSkill {
  id: string;
  name: string;
  /** Absolute skill folder. */
  dir: string;
}

/**
 * A skill argument as the user typed it: a folder, a SKILL.md path, or a bare name looked up in
 * `.claude/skills/` (the seed's auto-prefix). It must stay inside the project (symlinks included).
 */
export async function resolveSkill(kernel: Kernel, arg: string): Promise<ResolvedSkill> {
  const { host } = kernel;
  const tried: string[] = [];
  const candidates = [arg, ...(/^[\w.-]+$/.test(arg) ? [join('.claude', 'skills', arg)] : [])];
  for (const candidate of candidates) {
    const full = await realPathInside(host, kernel.projectRoot, candidate, 'skill path');
    const info = await host.stat(full);
    tried.push(kernel.display(full));
    if (info === null) continue;
    const dir = info.kind === 'file' && basename(full) === SKILL_FILE ? dirname(full) : full;
    if (info.kind === 'file' && basename(full) !== SKILL_FILE) {
      throw new SluiceError('SKILL_NOT_FOUND', { file: kernel.display(full), message: `a skill is a folder or its ${SKILL_FILE}, not ${basename(full)}` });
    }
    if (dir === kernel.projectRoot)
      throw new SluiceError('SKILL_INVALID', {
        file: kernel.display(full),
        message: 'the project root itself cannot be tuned as a skill; put the skill in its own folder',
      });
    const display = kernel.display(join(dir, SKILL_FILE));
    const check = await checkSkillFolder(host, dir);
    if (!check.ok) {
      if (check.message === 'SKILL.md is missing')
        throw new SluiceError('SKILL_NOT_FOUND', { file: display, message: `${kernel.display(dir)} has no ${SKILL_FILE}` });
      throw new SluiceError('SKILL_INVALID', { file: display, field: check.field, message: check.message });
    }
    const id = basename(dir);
    if (!SKILL_ID.test(id))
      throw new SluiceError('SKILL_INVALID', {
        file: kernel.display(dir),
        message: `folder name ${JSON.stringify(id)} cannot name a skill (letters, digits, dot, dash, underscore)`,
      });
    return { id, name: check.skill.name, dir };
  }
  throw new SluiceError('SKILL_NOT_FOUND', { file: arg, message: `no skill at ${tried.join(' or ')}` });
}
