/**
 * Whether a Bash command needs the parser at all. The guard runs before every tool call, and most
 * commands (`npm test`, `git status`, `ls src`) name nothing of sluice's and compute nothing: those
 * are let through without loading the parser. Anything that could name or reach a record (its
 * names, sluice itself, `$`, globs, `cd`, a folder above the records, shells within shells) is
 * parsed and judged. Quotes are dropped first, so `.sd''lc` still reads as `.sdlc`. The property test
 * test/guard/prefilter-differential.test.ts checks that what passes here unparsed the parser allows.
 */
const SYNTAX = /[$`*?[{\\~]|[<>]\(/;
const NAMES =
  /\.sdlc|\.sluice|\.prizmkit|sluice|allowed_signers|\.claude|ssh-keygen|lifecycle-requirement|trailer|\.git\b|hookspath|commit\.template|iteration-state|node_modules/i;
/** git's commit makers and `config`: a commit's message may come from a file or an earlier commit; git settings may run hooks. */
const WORDS =
  /(^|[\s;&|(])(eval|source|\.|cd|pushd|find|clean|reset|stash|checkout|restore|xargs|sh|bash|zsh|dash|ksh|fish|commit|commit-tree|merge|cherry-pick|config|checkout-index|apply|am|read-tree|tar|bsdtar|unzip|cpio|patch|7z|pax|ar|unrar|script|watch|alias|python[0-9.]*|node|nodejs|perl|ruby|php|deno|bun|tsx|lua|Rscript|osascript|yarn|pnpm|npx|exec|install|ci|add|update|upgrade|uninstall|remove|link|rebuild|dedupe|prune)($|[\s;&|)])/;
/** A bare `.`, `..`, `./`, `../` or `/` as a word: a folder that may hold the records. */
const ANCESTOR_WORD = /(^|[\s;&|(=])(\.{1,2}\/*|\/)($|[\s;&|)])/;
/** A path that climbs (`src/../..`) or ends in `.` (`src/.`): it may name a folder above the records. */
const CLIMBING_PATH = /(^|[\s;&|(=/])(\.\.($|[/\s;&|)])|\.\/*($|[\s;&|)]))/;

/** `outsideDirs`: sluice's folders outside the project (user config, cache), absolute. */
export function needsParsing(command: string, projectDir: string, outsideDirs: readonly string[]): boolean {
  const text = withoutProjectPrefix(command.replace(/['"]/g, ''), projectDir);
  if (text === undefined) return true;
  if (SYNTAX.test(text) || NAMES.test(text) || WORDS.test(text) || ANCESTOR_WORD.test(text) || CLIMBING_PATH.test(text)) return true;
  // An absolute path to a folder above the project (`rm -rf /home/me/work`), or to one of sluice's
  // own folders or above (a SLUICE_CACHE_DIR need not say "sluice"). The project's own path is gone.
  for (const start of [projectDir, ...outsideDirs]) {
    for (let dir = start === projectDir ? parentOf(start) : start; dir.length > 1; dir = parentOf(dir)) {
      const at = text.indexOf(dir);
      if (at >= 0 && !/[\w.-]/.test(text[at + dir.length] ?? '')) return true;
    }
  }
  return false;
}

/**
 * The command with the project's own path taken out of paths into it (`/home/me/sluice-app/src/x`
 * reads as `/src/x`), so a project folder whose name says "sluice" does not send every absolute
 * path to the parser. The project folder itself (`rm -rf /home/me/app`) holds the records: undefined.
 */
function withoutProjectPrefix(text: string, projectDir: string): string | undefined {
  const dir = projectDir.replace(/\/+$/, '');
  if (dir === '') return text;
  const parts = text.split(dir);
  return parts.slice(1).every((after) => /^\/[^\s/;&|()<>]/.test(after)) ? parts.join('') : undefined;
}

function parentOf(path: string): string {
  const at = path.replace(/\/+$/, '').lastIndexOf('/');
  return at <= 0 ? '/' : path.slice(0, at);
}
