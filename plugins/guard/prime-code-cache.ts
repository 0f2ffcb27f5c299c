import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadCached, saveCodeCache } from '../host-node/code-cache.ts';
import type * as ShellGuard from './shell-guard.ts';

/**
 * Build step (scripts/build.mjs): `node prime.cjs BUNDLE CACHE` judges a spread of commands with the
 * guard's shell bundle, so the parser functions real commands need are compiled, then saves V8's
 * code cache of them beside the bundle. Only speed depends on it: the verdicts here are discarded.
 */
const SAMPLES = [
  'npm test 2>&1 | tail -20',
  'git commit -m "$(cat <<\'EOF\'\nfix: typo\nEOF\n)"',
  "git commit -m \"$(cat <<'EOF'\nfix(x): don't\n\nCo-Authored-By: Claude <noreply@anthropic.com>\nEOF\n)\"",
  'cd src && ls -la > /tmp/out.txt; echo "${HOME:-x}" >> log',
  'for f in *.ts; do sed -i s/a/b/ "$f"; done',
  'if [ -f x ]; then rm -rf build; else mkdir -p build; fi',
  'case "$1" in a) echo a ;; *) echo b ;; esac',
  'while read -r l; do echo "$l"; done < input.txt',
  'f() { cp a b; }; f & wait',
  '(cd /tmp && tar czf x.tgz .) || echo `date`',
  'env X=1 bash -c \'echo "$X" | tee out\' 2>/dev/null',
  'find . -name "*.log" -delete && xargs rm < list',
  // The reader rules near the records: globs, variables, sed and awk programs, copies onto the root.
  "cat .sdlc/state.yaml | grep phase | wc -l && sed -n '1,5p' .sdlc/*.yaml && awk '{print $1}' x | sort -o y",
  'D=.sdlc; for f in $D/*.yaml; do jq . "$f"; done; cp -r /tmp/b/. . && npx sluice@latest status',
];

const [bundle, cacheFile] = process.argv.slice(2);
if (!bundle || !cacheFile) throw new Error('usage: prime-code-cache BUNDLE CACHE');
rmSync(cacheFile, { force: true });
const loaded = loadCached<typeof ShellGuard>(bundle, cacheFile, require);
const scope = {
  cwd: tmpdir(),
  projectDir: tmpdir(),
  places: { userConfigDir: join(tmpdir(), 'sluice-prime-config'), userCacheDir: join(tmpdir(), 'sluice-prime-cache') },
};
for (const command of SAMPLES) loaded.exports.judgeShell(command, scope);
if (!saveCodeCache(loaded, cacheFile)) throw new Error(`could not write ${cacheFile}`);
