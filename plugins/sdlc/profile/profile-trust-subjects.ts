import { commandSubjects, parseDataText, readDataText, yamlCodec, type Host, type TrustSubject } from '../../../core/index.ts';
import { sdlcPaths } from '../project/project-paths.ts';
import { packPluginSpecs, packPluginSubjects } from './pack-plugins.ts';

export const PROFILE_DISPLAY = '.sdlc/profile.yaml';

/**
 * The command gates of the project's frozen profile (`sluice.gates[]` with `type: command`), as
 * trust subjects: the same file, field and argv hash the command gate asks about when it runs, and
 * the project files that argv runs; and the pack's gate plugins frozen with it (`sluice.plugins`).
 * Read as plain data, never validated into errors: a broken profile has no commands to trust.
 */
export async function profileTrustSubjects(host: Host, projectRoot: string): Promise<TrustSubject[]> {
  let raw: unknown;
  try {
    raw = parseDataText(await readDataText(host, sdlcPaths(projectRoot).profile, { display: PROFILE_DISPLAY }), yamlCodec, PROFILE_DISPLAY);
  } catch {
    return [];
  }
  const out: TrustSubject[] = await packPluginSubjects(host, sdlcPaths(projectRoot).dir, PROFILE_DISPLAY, packPluginSpecs(raw));
  const gates = (raw as { sluice?: { gates?: unknown } } | null)?.sluice?.gates;
  if (!Array.isArray(gates)) return out;
  const scripts = { host, projectRoot, pathEnv: host.env('PATH') };
  for (const g of gates as Record<string, unknown>[]) {
    if (!g || g.type !== 'command' || !Array.isArray(g.argv)) continue;
    out.push(...(await commandSubjects(scripts, PROFILE_DISPLAY, `sluice.gates.${String(g.id)}`, g.argv.map(String))));
  }
  return out;
}
