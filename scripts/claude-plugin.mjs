#!/usr/bin/env node
// The Claude Code plugin's lifecycle skills (plugins/claude-code/skills/lifecycle-<stage>/SKILL.md),
// made from the stage prompts sluice hands its delegates (skills/lifecycle/<stage>.md), so the agent
// working a stage interactively follows the same instructions and checks the same evidence, then
// records the stage through sluice. `node scripts/claude-plugin.mjs --write` rewrites them;
// test/claude-code/claude-code-plugin.test.ts fails when they are stale.
import { readdirSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const root = fileURLToPath(new URL('..', import.meta.url));
const PROMPTS = join(root, 'skills', 'lifecycle');
const SKILLS = join(root, 'plugins', 'claude-code', 'skills');

/** The stages in lifecycle order (the file names of skills/lifecycle/). */
const ORDER = ['plan', 'implement', 'code-review', 'test', 'retrospective', 'commit'];

/** What each placeholder the delegates get filled in becomes when the agent runs the stage itself. */
const PLACEHOLDERS = {
  slug: 'SLUG',
  artifact_dir: 'ARTIFACT_DIR',
  situation:
    'What `sluice lifecycle next SLUG` said above is this stage’s situation: the first run, or a repair after a verdict (then do what the verdict asks).',
  changed_files: '(run `git status --short` to list them)',
  previous_error: '',
};

function splitPrompt(text, file) {
  const m = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  if (!m) throw new Error(`${file}: no frontmatter`);
  return { meta: parse(m[1]), body: m[2] };
}

function fill(body, file) {
  return body
    .replace(/\{\{(\w+)\}\}/g, (_, name) => {
      if (!(name in PLACEHOLDERS)) throw new Error(`${file}: unknown placeholder {{${name}}}`);
      return PLACEHOLDERS[name];
    })
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd();
}

/** How the agent leaves the evidence of an analysis stage: sluice writes it from a delegate's reply, here the agent writes it. */
function evidenceNote(meta) {
  if (!meta.output) return '';
  const how =
    meta.output_format === 'json' ? 'as that JSON object alone' : meta.output_mode === 'append' ? 'appended to what it holds' : 'as its whole content';
  return [
    '',
    'This stage only analyses: change no code. The prompt below was written for a delegate whose reply sluice',
    `stores; here you store it yourself, in \`ARTIFACT_DIR/${meta.output}\`, ${how}. That file is the evidence sluice reads.`,
    '',
  ].join('\n');
}

function recordSection(meta) {
  if (meta.stage === 'commit') {
    return [
      '## Hand the commit to the person',
      '',
      'A commit needs the person’s authorization, which an agent cannot give. Show them the message and paths',
      `from \`ARTIFACT_DIR/${meta.output}\`, and ask them to run this in their own terminal, where sluice`,
      'shows the commit for their yes (or checks the authorization the host holds):',
      '',
      '```bash',
      'sluice lifecycle record SLUG commit',
      '```',
    ].join('\n');
  }
  return [
    '## Record the stage',
    '',
    'When the evidence is written, record it with the sluice MCP tool `lifecycle_record`',
    `(\`{ "slug": "SLUG", "stage": "${meta.stage}" }\`) and show sluice’s answer. In Claude Code’s sandbox`,
    'sluice’s records are read-only to Bash, so the tool is the route; where no sluice MCP server is',
    'connected, run the command instead:',
    '',
    '```bash',
    `sluice lifecycle record SLUG ${meta.stage}`,
    '```',
    '',
    'A rule it reports (missing evidence, the wrong stage) means the evidence is not there yet: fix it and record',
    `again. If this stage cannot produce its evidence at all, record why: \`"blocked": "REASON"\` in the tool`,
    `(\`sluice lifecycle record SLUG ${meta.stage} --blocked "REASON"\`).`,
    'Then `lifecycle_next` (`sluice lifecycle next SLUG`) says which stage is next; run nothing else on your own.',
  ].join('\n');
}

export function lifecycleSkill(stage) {
  const file = `skills/lifecycle/${stage}.md`;
  const { meta, body } = splitPrompt(readFileSync(join(PROMPTS, `${stage}.md`), 'utf8'), file);
  const description = `${meta.description} The ${stage} stage of sluice's requirement lifecycle, for requirement SLUG (the argument): checks the stage is due, does it, and records it through sluice.`;
  return [
    '---',
    `name: lifecycle-${stage}`,
    `description: ${JSON.stringify(description)}`,
    '---',
    `<!-- Made from ${file} by scripts/claude-plugin.mjs --write: edit the prompt there, not this file. -->`,
    '',
    `# Lifecycle stage: ${stage}`,
    '',
    'SLUG is the requirement named in the request ($ARGUMENTS). First ask sluice where it stands:',
    '',
    '```bash',
    'sluice lifecycle next SLUG',
    '```',
    '',
    `Go on only if it names the ${stage} stage; otherwise stop and show its answer. ARTIFACT_DIR is the`,
    'requirement’s artifact folder: `artifactDir` in `sluice lifecycle status SLUG --json`.',
    evidenceNote(meta),
    fill(body, file),
    '',
    recordSection(meta),
    '',
  ].join('\n');
}

export function expectedSkills() {
  const stages = readdirSync(PROMPTS)
    .filter((f) => f.endsWith('.md'))
    .map((f) => f.slice(0, -3));
  const missing = ORDER.filter((s) => !stages.includes(s));
  if (missing.length > 0 || stages.length !== ORDER.length) throw new Error(`skills/lifecycle/ does not hold the stages ${ORDER.join(', ')}`);
  return ORDER.map((stage) => ({ path: join(SKILLS, `lifecycle-${stage}`, 'SKILL.md'), text: lifecycleSkill(stage) }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const write = process.argv.includes('--write');
  let stale = 0;
  for (const { path, text } of expectedSkills()) {
    let now = '';
    try {
      now = readFileSync(path, 'utf8');
    } catch {}
    if (now === text) continue;
    stale++;
    if (write) {
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(path, text);
    }
    process.stdout.write(`${write ? 'wrote' : 'stale'} ${path.slice(root.length)}\n`);
  }
  if (stale > 0 && !write) process.exitCode = 1;
}
