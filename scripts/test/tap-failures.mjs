// The tap leg's failures in plain lines, read from tap's per-file results (.tap/test-results).
// The terse reporter draws with cursor escapes, which a CI log viewer may drop with the lines that
// carry them; this list is what a reader of the log needs: which file, which test, which assertion.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const RESULTS = '.tap/test-results';

function resultFiles(dir) {
  let names;
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const files = [];
  for (const name of names) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...resultFiles(path));
    else if (name.endsWith('.tap')) files.push(path);
  }
  return files;
}

/**
 * Every failing test, as `{ file, lines }`: the `not ok` lines at any depth with the first lines of
 * their diagnostics (message, file:line), and a file whose results end without a plan (it crashed or
 * was killed) named as such. Only files written since `sinceMs`.
 */
export function tapFailures(sinceMs = 0) {
  const failures = [];
  for (const path of resultFiles(RESULTS)) {
    // Results left by an earlier run of other files are not this run's.
    if (statSync(path).mtimeMs < sinceMs) continue;
    const file = path.slice(RESULTS.length + 1).replace(/\.tap$/, '');
    const text = readFileSync(path, 'utf8');
    const lines = text.split('\n');
    const found = [];
    for (let i = 0; i < lines.length; i++) {
      if (!/^\s*not ok \d+/.test(lines[i])) continue;
      found.push(lines[i].trim());
      // The YAML block that follows: keep the lines that say what failed and where.
      for (let j = i + 1; j < lines.length && j < i + 40 && !/^\s*\.\.\.$/.test(lines[j]); j++) {
        if (!/^\s*(error|message|location|failureType|code|expected|actual|at):/.test(lines[j])) continue;
        found.push(`  ${lines[j].trim().slice(0, 300)}`);
        // A block scalar (`error: |-`): its first line is the message.
        if (/[|>]-?$/.test(lines[j]) && j + 1 < lines.length) found.push(`    ${lines[j + 1].trim().slice(0, 300)}`);
      }
    }
    const finished = /^# (fail|pass) \d+/m.test(text) || /^1\.\.\d+/m.test(text);
    if (!finished) found.push('(no final plan: the file crashed, hung past its timeout, or was killed)');
    if (found.length > 0) failures.push({ file, lines: found });
  }
  return failures;
}
