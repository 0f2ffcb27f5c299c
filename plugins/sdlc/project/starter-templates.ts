import type { PhaseDefinition } from '../registry/registry-schema.ts';

/**
 * Starter texts `sluice init` leaves where each required artifact goes, written for sluice. Every
 * prompt is a `<!-- REQUIRED: … -->` comment followed by a `TBD` line, so G2 keeps the phase
 * blocked until a person has replaced both with the real content.
 */

/** Section prompts for the artifacts most projects write; others get the generic three. */
const SECTIONS: Record<string, [string, string][]> = {
  'constitution.md': [
    ['Mission', 'what this project exists to achieve, and for whom, in one paragraph'],
    ['Principles', 'the rules every change is judged by (quality bar, security, how decisions are recorded)'],
    ['Decision authority', 'who may approve a phase transition, an architecture decision and a scope change'],
  ],
  'problem-statement.md': [
    ['Problem', 'what goes wrong today, for whom, and how often'],
    ['Impact', 'what the problem costs, with numbers and where they come from'],
    ['Scope', 'what is in scope and, just as explicitly, what is NOT being built'],
  ],
  'success-criteria.md': [
    ['Measures', 'at least three measurable dimensions, each with a pass/fail threshold'],
    ['Sources', 'where each measure will be read from, and by whom'],
  ],
  'constraints.md': [
    ['Budget and timeline', 'the money and dates the project must live within'],
    ['Technical and regulatory constraints', 'platforms, compliance frameworks and anything else fixed in advance'],
  ],
  'requirements.md': [
    ['Functional requirements', 'numbered requirements, each traceable to the problem statement'],
    ['Acceptance criteria', 'how each requirement is shown to be met'],
  ],
  'design-doc.md': [
    ['Architecture', 'the components, their responsibilities and how they talk to each other'],
    ['Decisions', 'the choices made, the alternatives rejected and why (link the ADRs)'],
  ],
};

const GENERIC: [string, string][] = [
  ['Purpose', 'what this document is for and who reads it'],
  ['Content', 'the substance this phase needs from it'],
  ['Open questions', 'what is still undecided, with an owner for each (write "none" when there are none)'],
];

/** A readable title from a file name: `phase1-handoff.md` → `Phase1 Handoff`. */
function titleOf(name: string): string {
  return name
    .replace(/\.[a-z0-9]+$/i, '')
    .split(/[-_ ]+/)
    .filter(Boolean)
    .map((w) => (w === w.toUpperCase() ? w : w[0].toUpperCase() + w.slice(1)))
    .join(' ');
}

/** The starter text of one required artifact (markdown only; other kinds get no template). */
export function starterTemplate(phase: PhaseDefinition, artifact: string, projectName: string): string | undefined {
  if (!/\.md$/i.test(artifact)) return undefined;
  const base = artifact.split('/').pop()!;
  const sections = SECTIONS[base] ?? GENERIC;
  const lines = [
    `# ${titleOf(base)} — ${projectName}`,
    '',
    `<!-- Starter template written by \`sluice init\` for ${phase.display ?? phase.name}. Replace each REQUIRED prompt, and the line under it, with the real content; G2 blocks the phase until then. -->`,
    '',
  ];
  for (const [heading, prompt] of sections) lines.push(`## ${heading}`, '', `<!-- REQUIRED: ${prompt} -->`, 'TBD', '');
  return lines.join('\n');
}

/** `.sdlc/constitution.md`: the project-wide rules the session hook loads first. */
export function constitutionTemplate(projectName: string, profileId: string): string {
  return [
    `# Constitution — ${projectName}`,
    '',
    `<!-- Written by \`sluice init\` (profile ${profileId}). It is loaded at the start of every agent session: keep it short and true. -->`,
    '',
    '## Mission',
    '',
    '<!-- REQUIRED: what this project exists to achieve, and for whom -->',
    'TBD',
    '',
    '## Rules every change follows',
    '',
    '- Phases advance only through `sluice next`, after their gates pass and a person confirms.',
    '- Frozen files (`.sdlc/profile.yaml`, `.sdlc/phase-registry.yaml`, `.sdlc/compliance/`) change only through `sluice refreeze`, with a reason.',
    '- The author of a change never approves it.',
    '',
    '## Decision authority',
    '',
    '<!-- REQUIRED: who approves phase transitions, architecture decisions and scope changes -->',
    'TBD',
    '',
  ].join('\n');
}
