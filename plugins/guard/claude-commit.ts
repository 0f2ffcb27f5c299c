/**
 * Claude Code's own commit, the one command it runs most that the prefilter cannot clear:
 *
 *     [git add -A && ]git commit -m "$(cat <<'EOF'
 *     <message>
 *     EOF
 *     )"
 *
 * Recognised whole, to the character, so it is answered without loading the shell parser. The body
 * is under a quoted delimiter, so the shell expands nothing in it; it is taken only when it holds
 * no line that would end it early (`EOF`), no backquote or `$(` (which the parser's path judges as if
 * they ran) and no `Lifecycle-Requirement` (only `sluice lifecycle` makes such a commit). Anything
 * else, however close, goes to the parser, which gives the same answer for this shape
 * (test/guard/prefilter-differential.test.ts checks it).
 */
const SHAPE = /^(?:git add (?:-A|--all|-u|\.) && )?git commit -m "\$\(cat <<'EOF'\n([^]*)\nEOF\n\)"$/;

export function isPlainClaudeCommit(command: string): boolean {
  const m = SHAPE.exec(command);
  if (!m) return false;
  const body = m[1]!;
  return !body.split('\n').some((line) => line === 'EOF') && !/[`]|\$\(|lifecycle-requirement/i.test(body);
}
