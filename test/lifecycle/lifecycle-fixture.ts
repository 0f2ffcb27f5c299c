import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createKernel, type Kernel } from '../../core/index.ts';
import { builtinPlugins } from '../../plugins/cli/builtin-plugins.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';
import { createLifecycleContext, type LifecycleContext } from '../../plugins/lifecycle/lifecycle-context.ts';

/** Runs git in a test repository (tests may use execFileSync; sluice itself goes through the Host). */
export function gitIn(root: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } });
}

export async function writeFiles(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

export const readJson = async (root: string, path: string) => JSON.parse(await readFile(join(root, path), 'utf8'));

/** A git repository with one commit, sluice runtime folders ignored, and a local identity. */
export async function makeRepo(files: Record<string, string> = {}): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'sluice-lifecycle-'));
  gitIn(root, 'init', '-q');
  gitIn(root, 'config', 'user.name', 'Test');
  gitIn(root, 'config', 'user.email', 'test@example.invalid');
  gitIn(root, 'config', 'commit.gpgsign', 'false');
  await writeFiles(root, { 'README.md': '# test project\n', '.gitignore': '.sluice/\n.prizmkit/state/\nbuild/\n', ...files });
  gitIn(root, 'add', '-A');
  gitIn(root, 'commit', '-q', '-m', 'init');
  return root;
}

export async function makeLifecycle(root: string, env: Record<string, string | undefined> = {}): Promise<{ kernel: Kernel; lc: LifecycleContext }> {
  const base = createNodeHost({ cwd: root });
  const host = { ...base, env: (name: string) => (name in env ? env[name] : base.env(name)) };
  const kernel = await createKernel({ host, projectRoot: root, plugins: builtinPlugins });
  return { kernel, lc: createLifecycleContext(kernel, root) };
}

/** Evidence files a stage would write, for requirement `slug` under .prizmkit/specs/. */
export const evidence = {
  plan: (slug: string, tasks = 2) => ({
    [`.prizmkit/specs/${slug}/spec.md`]: `# ${slug}\n\n## Goal\n\nDo it.\n`,
    [`.prizmkit/specs/${slug}/plan.md`]: `# Plan\n\n${Array.from({ length: tasks }, (_, i) => `- [ ] [T-00${i + 1}] task ${i + 1}`).join('\n')}\n`,
  }),
  implement: (slug: string, code = 'export const x = 1;\n', tasks = 2) => ({
    [`src/${slug}.js`]: code,
    [`.prizmkit/specs/${slug}/plan.md`]: `# Plan\n\n${Array.from({ length: tasks }, (_, i) => `- [x] [T-00${i + 1}] task ${i + 1}`).join('\n')}\n`,
  }),
  review: (slug: string, verdict: 'PASS' | 'NEEDS_FIXES') => ({
    [`.prizmkit/specs/${slug}/review-report.md`]: `# Review\n\n## Final Result\n\n- Verdict: ${verdict}\n- Major: ${verdict === 'PASS' ? 0 : 1}\n- Minor: 0\n- Total: ${verdict === 'PASS' ? 0 : 1}\n`,
  }),
  test: (slug: string, verdict: 'TEST_PASS' | 'TEST_FAIL' | 'TEST_BLOCKED', scope: string | null = null) => ({
    [`.prizmkit/specs/${slug}/test-output.txt`]: `${verdict}\n`,
    [`.prizmkit/specs/${slug}/verdict.json`]: JSON.stringify({
      verdict,
      repair_scope: scope,
      evidence: ['test-output.txt'],
      ...(verdict === 'TEST_FAIL' ? { failures: [{ test: 'a test' }] } : {}),
      ...(verdict === 'TEST_BLOCKED' ? { blocker: 'database down' } : {}),
    }),
  }),
  retrospective: (slug: string) => ({ [`.prizmkit/specs/${slug}/retrospective-result.json`]: JSON.stringify({ result: 'NO_DOC_CHANGE' }) }),
  commitRequest: (slug: string, paths: string[], extra: Record<string, unknown> = {}) => ({
    [`.prizmkit/specs/${slug}/commit-request.json`]: JSON.stringify({ message: `feat(${slug}): add ${slug}`, paths, ...extra }),
  }),
};

/** A grant in a project's sluice.config.yaml: never honoured (the agent can write it), kept to prove that. */
export const GRANT_CONFIG = 'lifecycle:\n  commitAuthorization:\n    mode: headless-ci\n    owner: ci.example\n    local_commit_authorized: true\n';

/** What code embedding sluice may pass as `authorize.hostGrant`. */
export const HOST_GRANT = { mode: 'headless-ci', owner: 'ci.example', local_commit_authorized: true as const };

/** A user config outside every repository holding a grant, owner-only (mode 600) unless `mode` says otherwise. */
export async function userGrantFile(body: string = GRANT_CONFIG, mode = 0o600): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sluice-user-config-'));
  const file = join(dir, 'config.yaml');
  await writeFile(file, body);
  await chmod(file, mode);
  return file;
}
