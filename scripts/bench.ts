// `npm run bench`: every speed and memory figure sluice tracks, as one JSON document on stdout.
// Each area adds a file under scripts/bench/ exporting `name` and `run()`; `npm run bench -- kernel`
// runs only the named sections. Progress goes to stderr.
import { readdir } from 'node:fs/promises';

interface BenchSection {
  name: string;
  run(): Promise<Record<string, unknown>>;
}

const dir = new URL('./bench/', import.meta.url);
const wanted = process.argv.slice(2);
const files = (await readdir(dir)).filter((f) => f.endsWith('.ts')).sort();
const report: Record<string, unknown> = { node: process.version, platform: `${process.platform}-${process.arch}`, at: new Date().toISOString() };
for (const file of files) {
  const section = (await import(new URL(file, dir).href)) as BenchSection;
  if (wanted.length > 0 && !wanted.includes(section.name)) continue;
  process.stderr.write(`bench: ${section.name}...\n`);
  const started = performance.now();
  try {
    report[section.name] = { ...(await section.run()), sectionMs: Math.round(performance.now() - started) };
  } catch (error) {
    report[section.name] = { error: error instanceof Error ? error.message : String(error) };
  }
}
process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
