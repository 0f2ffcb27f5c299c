import { join } from 'pathe';
import { isInside } from '../paths/inside.ts';

/**
 * What an AI CLI that sluice starts may do with the file system, as data the host turns into a
 * bubblewrap command line or a sandbox-exec profile. Rules are applied in order and a later rule wins
 * for everything under its path (so a writable working folder can sit inside a read-only `.sluice/`);
 * whatever no rule covers stays as the operating system allows it. The network is not touched.
 */
export type SandboxKind = 'bubblewrap' | 'sandbox-exec';
export type SandboxAccess = 'write' | 'read' | 'none';

export interface SandboxRule {
  path: string;
  /** `write`: writable again; `read`: read-only; `none`: neither readable nor writable (hidden). */
  access: SandboxAccess;
  /**
   * A missing folder is made so that it can be covered (bubblewrap cannot bind what is not there):
   * `in-parent` only when its parent folder exists (`.git/hooks` in a repository), `with-parents`
   * always, owner-only (sluice's user folders). Without it a missing path is left uncovered by
   * bubblewrap (sandbox-exec denies by path and needs no placeholder).
   */
  create?: 'in-parent' | 'with-parents';
}

export interface SandboxPolicy {
  rules: SandboxRule[];
}

export interface SandboxPolicyInput {
  mode: 'write' | 'analysis';
  /** The run's working folder (absolute). */
  cwd: string;
  projectRoot: string;
  /** sluice's user folders (`protectedUserFolders`): config, keys, trust store, anchors, cache. */
  userFolders: readonly string[];
  /** sluice's own installation (and what else must not be replaced); skipped when the project is inside it. */
  installation: readonly string[];
  /** More read-only paths the caller names (a tune run's state folder). */
  readOnly?: readonly string[];
}

/** sluice's config files, read-only inside the sandbox: a run must not turn its own sandbox off. */
const CONFIG_FILES = ['sluice.config.yaml', 'sluice.config.yml', 'sluice.config.json'];
/** Where the agent's own work goes in `.sdlc/` (the guard leaves them open too). */
const OPEN_IN_SDLC = ['artifacts', 'reports'];

/** The records of one work tree: read-only for every run. */
export function recordRules(root: string): SandboxRule[] {
  return [
    { path: join(root, '.sdlc'), access: 'read' },
    { path: join(root, '.sdlc', OPEN_IN_SDLC[0]!), access: 'write', create: 'in-parent' },
    { path: join(root, '.sdlc', OPEN_IN_SDLC[1]!), access: 'write' },
    { path: join(root, '.prizmkit', 'state'), access: 'read', create: 'in-parent' },
    { path: join(root, '.sluice'), access: 'read' },
    ...CONFIG_FILES.map((f): SandboxRule => ({ path: join(root, f), access: 'read' })),
    { path: join(root, '.git', 'config'), access: 'read' },
    { path: join(root, '.git', 'hooks'), access: 'read', create: 'in-parent' },
  ];
}

/**
 * The rules for one run. Write mode: the work tree as it is, its records read-only; a working folder
 * that lies inside a read-only place (a tune iteration, a worker's clone under `.sluice/`) is writable
 * again, with its own records read-only. Analysis: the project and the working folder read-only.
 * Last: sluice's installation read-only and its user folders hidden, so no earlier rule re-opens them.
 */
export function sandboxPolicy(input: SandboxPolicyInput): SandboxPolicy {
  const { cwd, projectRoot } = input;
  const rules: SandboxRule[] = [];
  const roots = [...new Set([projectRoot, cwd])];
  if (input.mode === 'analysis') {
    for (const root of roots) rules.push({ path: root, access: 'read' });
  } else {
    for (const path of input.readOnly ?? []) rules.push({ path, access: 'read' });
    rules.push(...recordRules(projectRoot));
    if (cwd !== projectRoot) {
      if (coveredReadOnly(rules, cwd)) rules.push({ path: cwd, access: 'write' });
      rules.push(...recordRules(cwd));
    }
  }
  const inside = (dir: string) => roots.some((root) => isInside(dir, root));
  for (const path of input.installation) if (!inside(path)) rules.push({ path, access: 'read' });
  for (const path of input.userFolders) rules.push({ path, access: 'none', create: 'with-parents' });
  return { rules: dedupe(rules) };
}

/** Whether the last rule covering `path` makes it read-only. */
function coveredReadOnly(rules: readonly SandboxRule[], path: string): boolean {
  const last = rules.findLast((r) => isInside(r.path, path));
  return last !== undefined && last.access !== 'write';
}

/** Drops a rule repeated later with the same path (the later one wins anyway). */
function dedupe(rules: SandboxRule[]): SandboxRule[] {
  return rules.filter((r, i) => !rules.slice(i + 1).some((later) => later.path === r.path));
}
