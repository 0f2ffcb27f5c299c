import { existsSync } from 'node:fs';
import { allow, stricter, type Decision } from './decision.ts';
import { containsProtected, protectedPath, protectedRead, type GuardPlaces } from './protected-paths.ts';
import { pathsOf } from './resolve-path.ts';

/**
 * A tool the guard has no rules for (an MCP server's `mcp__fs__write_file`, a plugin's editor) is
 * judged by every path it is given, wherever in its input: a string that looks like a path (or sits
 * in a field named like one) and names one of sluice's protected paths is denied, or asked about
 * when it names a folder above them; a tool whose name says it only reads is held to the read rules
 * (sluice's private folders). What the guard cannot walk (too deep, too many fields) is asked about.
 */
const MAX_STRINGS = 2000;
const MAX_DEPTH = 12;
const READING_TOOL = /(^|_)(read|get|list|search|find|glob|grep|view|show|stat|info|tree|fetch|query|describe)([_A-Z]|$)/i;
const PATH_FIELD = /path|file|dir|folder|target|dest|source|src|root|cwd|location/i;
const URL = /^[a-z][a-z0-9+.-]*:\/\//i;

interface Found {
  paths: string[];
  overflow: boolean;
}

function looksLikePath(value: string, key: string): boolean {
  if (value === '' || value.length > 4096 || /\s/.test(value) || URL.test(value)) return false;
  return /^[/~.]/.test(value) || value.includes('/') || PATH_FIELD.test(key);
}

function walk(value: unknown, key: string, depth: number, found: Found): void {
  if (found.overflow) return;
  if (typeof value === 'string') {
    if (looksLikePath(value, key)) found.paths.push(value);
    if (found.paths.length > MAX_STRINGS) found.overflow = true;
    return;
  }
  if (value === null || typeof value !== 'object') return;
  if (depth >= MAX_DEPTH) {
    found.overflow = true;
    return;
  }
  if (Array.isArray(value)) for (const v of value) walk(v, key, depth + 1, found);
  else for (const [k, v] of Object.entries(value)) walk(v, k, depth + 1, found);
}

/** sluice's own MCP server (as configured, or from its Claude Code plugin): the sanctioned way to change records. */
const SLUICE_MCP = /^mcp__(plugin_sluice_)?sluice__/;

export function judgeToolFields(tool: string, input: Record<string, unknown> | undefined, cwd: string, projectDir: string, places: GuardPlaces): Decision {
  if (SLUICE_MCP.test(tool)) return allow;
  const found: Found = { paths: [], overflow: false };
  walk(input, '', 0, found);
  if (found.overflow) return { verdict: 'ask', reason: `${tool} carries more fields than sluice's guard reads, so it cannot tell what it touches` };
  // `mcp__server__read_file`: the tool's own name is the last part.
  const reads = READING_TOOL.test(tool.split('__').at(-1) ?? tool);
  let d = allow;
  for (const p of found.paths.flatMap((text) => pathsOf(text, cwd))) {
    const hit = reads ? protectedRead(p, places) : protectedPath(p, places);
    if (hit) d = stricter(d, { verdict: hit.verdict, reason: `${tool} is given ${p}: ${hit.reason}` });
    else if (!reads && containsProtected(p, places, existsSync, projectDir))
      d = stricter(d, { verdict: 'ask', reason: `${tool} is given ${p}, which holds sluice's records; sluice cannot tell what the tool does there` });
  }
  return d;
}
