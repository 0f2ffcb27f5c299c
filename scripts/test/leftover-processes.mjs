// Processes the test suite left running. Every leg starts with SLUICE_TEST_RUN=<id> in its
// environment, which every descendant inherits (sluice, fake CLIs, their grandchildren), so after
// a leg any live process still carrying the marker was left behind. Linux only (/proc); elsewhere
// the check finds nothing. A process that cleared its environment (`env -i`) escapes the marker.
import { readdirSync, readFileSync } from 'node:fs';

/** A fresh marker for one suite run: `SLUICE_TEST_RUN=<value>`. */
export function newRunMarker() {
  return `${process.pid}-${Date.now().toString(36)}`;
}

/** Live (not zombie) processes whose environment carries the marker, other than this one. */
export function findLeftovers(marker) {
  const needle = `SLUICE_TEST_RUN=${marker}`;
  const found = [];
  let pids;
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return found;
  }
  for (const pid of pids) {
    if (Number(pid) === process.pid) continue;
    try {
      const state = / ([A-Za-z]) /.exec(readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\)/, ''))?.[1];
      if (state === 'Z' || state === 'X') continue;
      if (!readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(needle)) continue;
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
      found.push({ pid: Number(pid), cmd });
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

/**
 * Waits up to `graceMs` for leftovers to end on their own (a SIGKILLed group is gone at once, but a
 * loaded machine may take a moment to schedule the exits), then kills and returns whatever is left.
 */
export async function reapLeftovers(marker, graceMs = 10_000) {
  let left = findLeftovers(marker);
  for (let waited = 0; left.length > 0 && waited < graceMs; waited += 250) {
    await new Promise((r) => setTimeout(r, 250));
    left = findLeftovers(marker);
  }
  for (const { pid } of left) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return left;
}
