import { isAbsolute, join, relative } from 'pathe';
import type { Host } from '../host/host.ts';
import { isInside } from '../paths/inside.ts';
import { filesNamedBy, scriptCommands, type NamedFile } from './command-files.ts';
import { canonicalJson, sha256, type TrustSubject } from './trust-subject.ts';

/**
 * The files a trusted setting runs, as trust subjects of their own: `{ file: 'ai.sh', what: 'run by
 * delegates.shell' }`, hashed by content. So an edit to `./ai.sh` after `sluice trust` is refused
 * (WORKSPACE_UNTRUSTED naming ai.sh) until a person trusts again.
 *
 * - A file named by path is hashed wherever it is, in the project or not (`../tools/ai.sh`,
 *   `/opt/acme/lint.sh`): a file outside the project can be just as writable by the agent, and
 *   hashing it is the safer answer. Only a system file outside the project (owned by root, not
 *   writable by others, while sluice runs as another user: `/usr/bin/env`) is taken by its path,
 *   since the agent cannot change it and an OS update must not need new trust. A missing,
 *   unreadable or special file is hashed as that state,
 *   never read (a FIFO in its place must not hang sluice), so creating it later counts as a change.
 * - A bare program name (`claude`, `node`, `eslint`) is what the person installed: hashed only when
 *   PATH leads into the project (`PATH=./bin:...`), else an upgrade of node would need new trust.
 * - `npm run NAME` (and `pnpm`/`yarn`): the script's line in package.json (with its pre/post
 *   scripts), and the files that line names, one level deep.
 */
export const RUN_BY = 'run by ';

/** A person's script is small; past this it is fingerprinted by its size alone (and refused to load in full). */
const MAX_SCRIPT_BYTES = 16 * 1024 * 1024;
const MAX_PACKAGE_JSON_BYTES = 1024 * 1024;

export interface ScriptContext {
  host: Host;
  projectRoot: string;
  /** The PATH the command is looked up with (a delegate's own `env.PATH`, else the host's). */
  pathEnv: string | undefined;
}

const display = (root: string, path: string) => (isInside(root, path) ? relative(root, path) || '.' : path);

/** `sha256:…` of a file's bytes, or a word for why there are none (hashed the same way every time). */
async function contentOf(c: ScriptContext, path: string): Promise<string> {
  const { host } = c;
  const info = await host.stat(path).catch(() => null);
  if (info === null) return 'missing';
  if (info.kind !== 'file') return `not a file (${info.kind})`;
  const me = host.userId();
  if (!isInside(c.projectRoot, path) && info.uid === 0 && me !== undefined && me !== 0 && info.mode !== undefined && !(info.mode & 0o002)) return 'system file';
  if (info.size !== undefined && info.size > MAX_SCRIPT_BYTES) return `too large (${info.size} bytes)`;
  try {
    return await sha256(await host.readBytes(path, { maxBytes: MAX_SCRIPT_BYTES }));
  } catch {
    return 'unreadable';
  }
}

async function onPath(c: ScriptContext, name: string): Promise<string | undefined> {
  for (const dir of (c.pathEnv ?? '').split(':')) {
    if (dir === '') continue;
    const full = join(isAbsolute(dir) ? dir : join(c.projectRoot, dir), name);
    if (await c.host.isExecutable(full)) return full;
  }
  return undefined;
}

/** Hashed by its name as shown (relative inside the project, so a CI checkout elsewhere hashes the same) and content. */
async function fileSubject(c: ScriptContext, setting: string, path: string): Promise<TrustSubject> {
  const shown = display(c.projectRoot, path);
  return { file: shown, what: `${RUN_BY}${setting}`, shows: shown, hash: await sha256(`${shown}\u0000${await contentOf(c, path)}`) };
}

async function packageScriptSubjects(c: ScriptContext, setting: string, name: string, implicit: boolean, depth: number): Promise<TrustSubject[]> {
  const file = join(c.projectRoot, 'package.json');
  let scripts: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(await c.host.readText(file, { maxBytes: MAX_PACKAGE_JSON_BYTES })) as { scripts?: unknown };
    if (parsed?.scripts && typeof parsed.scripts === 'object') scripts = parsed.scripts as Record<string, unknown>;
  } catch {
    // No package.json, or not JSON: the manager fails the same way, and the state is hashed below.
  }
  const line = (key: string) => (typeof scripts[key] === 'string' ? (scripts[key] as string) : undefined);
  if (implicit && line(name) === undefined) return [];
  const lines = { pre: line(`pre${name}`), main: line(name), post: line(`post${name}`) };
  const subject: TrustSubject = {
    file: 'package.json',
    what: `${RUN_BY}${setting}: scripts.${name}`,
    shows: lines.main ?? '(no such script)',
    hash: await sha256(canonicalJson(lines)),
  };
  const named = depth > 0 ? [] : Object.values(lines).flatMap((l) => (l === undefined ? [] : scriptCommands(l).flatMap((argv) => filesNamedBy(argv))));
  return [subject, ...(await resolveNamed(c, setting, named, depth + 1))];
}

async function resolveNamed(c: ScriptContext, setting: string, named: readonly NamedFile[], depth: number): Promise<TrustSubject[]> {
  const out: TrustSubject[] = [];
  for (const n of named) {
    if (n.kind === 'path') out.push(await fileSubject(c, setting, isAbsolute(n.spec) ? n.spec : join(c.projectRoot, n.spec)));
    else if (n.kind === 'program') {
      const found = await onPath(c, n.spec);
      if (found !== undefined && isInside(c.projectRoot, found)) out.push(await fileSubject(c, setting, found));
    } else if (n.kind === 'python-module') {
      const base = join(c.projectRoot, ...n.spec.split('.'));
      for (const candidate of [`${base}.py`, join(base, '__main__.py')]) {
        if (!(await c.host.stat(candidate).catch(() => null))) continue;
        out.push(await fileSubject(c, setting, candidate));
        break;
      }
    } else out.push(...(await packageScriptSubjects(c, setting, n.spec, n.implicit, depth)));
  }
  return out;
}

/**
 * The subjects for the files the command lines of one setting run (`setting` is its field, e.g.
 * `delegates.shell` or `sluice.gates.lint`), each file once.
 */
export async function scriptSubjects(c: ScriptContext, setting: string, argvs: readonly (readonly string[])[]): Promise<TrustSubject[]> {
  const all = await resolveNamed(
    c,
    setting,
    argvs.flatMap((argv) => filesNamedBy(argv)),
    0,
  );
  const seen = new Set<string>();
  return all.filter((s) => {
    const key = `${s.file}\u0000${s.what}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
