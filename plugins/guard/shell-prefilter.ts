/**
 * Whether a Bash command needs the parser at all. The guard runs before every tool call, and most
 * commands (`npm test`, `git status`, `ls src`) name nothing of sluice's and compute nothing: those
 * are let through without loading the parser. Anything that could name or reach a record (its
 * names, sluice itself, `$`, globs, `cd`, a folder above the records, shells within shells) is
 * parsed and judged. Quotes are dropped first, so `.sd''lc` still reads as `.sdlc`.
 */
const SYNTAX = /[$`*?[{\\~]|[<>]\(/;
const NAMES = /\.sdlc|\.sluice|\.prizmkit|sluice|allowed_signers|\.claude|ssh-keygen|lifecycle-requirement|trailer/i;
const WORDS = /(^|[\s;&|(])(eval|source|\.|cd|pushd|find|clean|reset|stash|checkout|restore|xargs|sh|bash|zsh|dash|ksh)($|[\s;&|)])/;
/** A bare `.`, `..`, `./`, `../` or `/` as a word: a folder that may hold the records. */
const ANCESTOR_WORD = /(^|[\s;&|(=])(\.{1,2}\/*|\/)($|[\s;&|)])/;

export function needsParsing(command: string, projectDir: string): boolean {
  const text = command.split(projectDir).join('').replace(/['"]/g, '');
  if (SYNTAX.test(text) || NAMES.test(text) || WORDS.test(text) || ANCESTOR_WORD.test(text)) return true;
  // An absolute path to a folder above the project (`rm -rf /home/me/work`).
  for (let dir = parentOf(projectDir); dir.length > 1; dir = parentOf(dir)) {
    const at = text.indexOf(dir);
    if (at >= 0 && !/[\w.-]/.test(text[at + dir.length] ?? '')) return true;
  }
  return false;
}

function parentOf(path: string): string {
  const at = path.replace(/\/+$/, '').lastIndexOf('/');
  return at <= 0 ? '/' : path.slice(0, at);
}
