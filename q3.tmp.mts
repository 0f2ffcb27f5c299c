import fc from 'fast-check';
import { mkdirSync, writeFileSync } from 'node:fs';
import { judgeShell } from './plugins/guard/shell-guard.ts';
import { needsParsing } from './plugins/guard/shell-prefilter.ts';
const project = '/tmp/h4b/d/app';
const places = { userConfigDir: '/tmp/h4b/d/config/sluice' };
for (const d of ['.sdlc/artifacts', '.sluice/runs', '.prizmkit/state/journal', 'src', 'build']) mkdirSync(`${project}/${d}`, { recursive: true });
const src = (await import('node:fs')).readFileSync('test/guard/prefilter-differential.test.ts', 'utf8');
const { wordsFor, commandsFor } = await import('./q3-gen.tmp.ts');
const seen = new Set<string>();
for (let seed = 1; seed <= 40; seed++) {
  const r = fc.check(fc.property(commandsFor(project, places), fc.constantFrom('', 'src'), (command, sub) => {
    const cwd = sub ? `${project}/${sub}` : project;
    if (needsParsing(command, project)) return true;
    return judgeShell(command, { cwd, projectDir: project, places }).verdict === 'allow';
  }), { numRuns: 3000, seed });
  if (r.failed) { const k = JSON.stringify(r.counterexample); if (!seen.has(k)) { seen.add(k); const [c, sub] = r.counterexample!; console.log(k, judgeShell(c, { cwd: sub ? `${project}/${sub}` : project, projectDir: project, places }).reason); } }
}
