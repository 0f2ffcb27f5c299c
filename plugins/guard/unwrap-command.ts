import { basename } from 'node:path';
import type { ShellWord } from './shell-words.ts';

/**
 * The command a line really runs, past wrappers that run another command with the same arguments:
 * `env X=1 sluice trust`, `sudo rm`, `npx sluice`, `node dist/sluice.mjs`, `timeout 5 rm`.
 * Returns the argv from the real command on (its first word's basename as `name`).
 */
export interface Unwrapped {
  name: string;
  argv: ShellWord[];
}

/** Wrappers and how many words each takes before the wrapped command (options with a value). */
const WRAPPER_VALUE_OPTIONS: Record<string, Set<string>> = {
  env: new Set(['-u', '--unset', '-C', '--chdir', '-S', '--split-string']),
  sudo: new Set(['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U']),
  doas: new Set(['-u', '-C']),
  nice: new Set(['-n']),
  ionice: new Set(['-c', '-n', '-p']),
  timeout: new Set(['-s', '--signal', '-k', '--kill-after']),
  stdbuf: new Set(['-i', '-o', '-e']),
  npx: new Set(['-p', '--package', '-c', '--call']),
  bunx: new Set(['-p', '--package']),
  pnpx: new Set([]),
  command: new Set([]),
  builtin: new Set([]),
  exec: new Set(['-a']),
  nohup: new Set([]),
  time: new Set(['-f', '-o']),
  setsid: new Set([]),
  chronic: new Set([]),
  unbuffer: new Set([]),
};
/** Wrappers whose first operand is not the command (timeout's duration). */
const SKIP_OPERAND = new Set(['timeout']);
const RUNNERS = new Set(['node', 'nodejs', 'tsx', 'bun', 'deno']);
const PACKAGE_EXEC = new Set(['npm', 'pnpm', 'yarn', 'bun']);
/** sluice's own entry points, as a runner names them: its bin, its bundles, its checkout's source, anything in its package. */
const SLUICE_SCRIPT = /(^|\/)(sluice(\.[cm]?js)?|cli-loader\.cjs|guard\.cjs|plugins\/cli\/main\.ts)$|(^|\/)node_modules\/sluice\//;

/** A package spec's command name: `sluice@latest`, `sluice@^1`, `@scope/sluice@2` → `sluice`. */
function packageName(text: string): string {
  const spec = /^((?:@[^/@]+\/)?[^/@]+)@[^/]*$/.exec(text);
  return basename(spec ? spec[1]! : text);
}

export function unwrapCommand(words: ShellWord[]): Unwrapped | undefined {
  let i = 0;
  for (let guard = 0; guard < 16 && i < words.length; guard++) {
    const first = words[i]!;
    if (first.dynamic) return undefined;
    const name = basename(first.text);
    const valueOptions = WRAPPER_VALUE_OPTIONS[name];
    if (valueOptions) {
      const wrapper = i;
      i++;
      while (i < words.length && (words[i]!.text.startsWith('-') || (name === 'env' && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i]!.text)))) {
        if (words[i]!.text === '--') {
          i++;
          break;
        }
        i += valueOptions.has(words[i]!.text) ? 2 : 1;
      }
      if (SKIP_OPERAND.has(name)) i++;
      // A wrapper given no command (`env`, `env X=1`, `sudo -l`) runs nothing else: it is the command.
      if (i >= words.length) return { name, argv: words.slice(wrapper) };
      continue;
    }
    if (PACKAGE_EXEC.has(name) && ['exec', 'x', 'dlx'].includes(words[i + 1]?.text ?? '')) {
      i += 2;
      while (i < words.length && words[i]!.text.startsWith('-')) i += /^(-p|--package|-c|--call)$/.test(words[i]!.text) ? 2 : 1;
      continue;
    }
    // `yarn sluice …` and `pnpm sluice …` run a package's bin by name, as `npx` does.
    if ((name === 'yarn' || name === 'pnpm') && words[i + 1] && packageName(words[i + 1]!.text) === 'sluice')
      return { name: 'sluice', argv: words.slice(i + 1) };
    if (RUNNERS.has(name)) {
      let j = i + 1;
      while (j < words.length && words[j]!.text.startsWith('-')) j++;
      if (words[j] && name === 'deno' && words[j]!.text === 'run') for (j++; j < words.length && words[j]!.text.startsWith('-'); ) j++;
      if (words[j] && !words[j]!.dynamic && SLUICE_SCRIPT.test(words[j]!.text)) return { name: 'sluice', argv: words.slice(j) };
    }
    return { name: packageName(first.text).replace(/\.[cm]?js$/, ''), argv: words.slice(i) };
  }
  return undefined;
}

/** Splits a command's arguments into options and operands; `valued` options take the next word. */
export function operands(
  argv: ShellWord[],
  valued: ReadonlySet<string> = new Set(),
): { options: string[]; operands: ShellWord[]; values: Map<string, ShellWord> } {
  const options: string[] = [];
  const out: ShellWord[] = [];
  const values = new Map<string, ShellWord>();
  let afterDashes = false;
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i]!;
    if (!afterDashes && w.text === '--') afterDashes = true;
    else if (!afterDashes && w.text.startsWith('-') && w.text !== '-') {
      options.push(w.text);
      if (valued.has(w.text) && argv[i + 1]) values.set(w.text, argv[++i]!);
    } else out.push(w);
  }
  return { options, operands: out, values };
}
