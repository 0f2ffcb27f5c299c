/**
 * Which files a command line makes run, read from its argv alone (no file system): the program when
 * it is named by path, the script operand of a known interpreter (`node tools/check.mjs`,
 * `python3 -m tools.lint`, `bash -- x.sh`), the modules an interpreter preloads (`node -r ./x.js`),
 * and the package.json script a package manager runs (`npm run lint`). Trust hashes these, so an
 * edit to `./ai.sh` after `sluice trust` needs trust again.
 *
 * Inline code (`node -e`, `sh -c`, `python3 -c`) is in the argv, which is hashed already. What a
 * named file runs in turn (a script calling another script) is not followed.
 */
export type NamedFile =
  /** A path as written: absolute, or relative to the folder the command runs in. */
  | { kind: 'path'; spec: string }
  /** A bare program name, looked up on PATH: project content only when PATH leads into the project. */
  | { kind: 'program'; spec: string }
  /** `python -m pkg.mod`: a file in the project when one is there (else an installed module). */
  | { kind: 'python-module'; spec: string }
  /** A script in package.json; `implicit` when the manager runs it by name only if there is one (`yarn lint`). */
  | { kind: 'package-script'; spec: string; implicit: boolean };

interface Interpreter {
  /** Options whose value is inline code: after one, there is no script operand. */
  code: ReadonlySet<string>;
  /** Options whose value is a file that runs (or configures the run) too. */
  files: ReadonlySet<string>;
  /** Options naming a module to preload: a file when spelled as a path (`-r ./x.js`), else a package. */
  modules?: ReadonlySet<string>;
  /** Other options that take a separate value. */
  values: ReadonlySet<string>;
  /** A first word the runtime treats as a subcommand before the script (`deno run x.ts`). */
  subcommands?: ReadonlySet<string>;
  /** Short options may be clustered (`bash -ec`, `python3 -uc`): a cluster holding a code letter is code. */
  clusters?: boolean;
  /** The option naming a module to run (`python3 -m`). */
  module?: string;
}

const set = (...xs: string[]) => new Set(xs);
const NODE: Interpreter = {
  code: set('-e', '--eval', '-p', '--print'),
  files: set('--env-file'),
  modules: set('-r', '--require', '--import', '--loader', '--experimental-loader'),
  values: set('-C', '--conditions', '--title', '--input-type', '--inspect-port'),
};
const RUNTIMES: Interpreter = { ...NODE, subcommands: set('run', 'x', 'exec') };
const SHELL: Interpreter = { code: set('-c'), files: set('--rcfile', '--init-file'), values: set('-o', '+o', '-O', '+O'), clusters: true };
const PYTHON: Interpreter = { code: set('-c'), files: set(), values: set('-W', '-X', '--check-hash-based-pycs'), clusters: true, module: '-m' };
const INTERPRETERS: Record<string, Interpreter> = {
  node: NODE,
  nodejs: NODE,
  tsx: NODE,
  'ts-node': NODE,
  deno: RUNTIMES,
  bun: RUNTIMES,
  sh: SHELL,
  bash: SHELL,
  dash: SHELL,
  zsh: SHELL,
  ksh: SHELL,
  fish: SHELL,
  ruby: { code: set('-e'), files: set(), modules: set('-r'), values: set('-I', '-C', '-E'), clusters: true },
  perl: { code: set('-e', '-E'), files: set(), values: set('-I', '-M', '-m'), clusters: true },
  php: { code: set('-r'), files: set('-f'), values: set('-c', '-d', '-z') },
  lua: { code: set('-e'), files: set(), values: set('-l') },
  Rscript: { code: set('-e'), files: set('--file'), values: set() },
};

/** `python`, `python3`, `python3.12`, `pypy3` all read argv as CPython does. */
function interpreterOf(name: string): Interpreter | undefined {
  if (/^(python|pypy)(\d+(\.\d+)?)?$/.test(name)) return PYTHON;
  return Object.hasOwn(INTERPRETERS, name) ? INTERPRETERS[name] : undefined;
}

const PACKAGE_MANAGERS = set('npm', 'pnpm', 'yarn');
/** Words that run a package.json script by that name, whatever the manager. */
const LIFECYCLE_SCRIPTS = set('test', 't', 'start', 'stop', 'restart');
/** pnpm and yarn run `pnpm NAME` as a script unless NAME is one of their own commands. */
const MANAGER_COMMANDS = set('install', 'i', 'add', 'remove', 'rm', 'update', 'up', 'exec', 'dlx', 'x', 'create', 'init', 'publish', 'pack', 'link');

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);
/** How node and ruby tell a module path from a package name. */
const looksLikePath = (spec: string) => spec.startsWith('./') || spec.startsWith('../') || spec.startsWith('/');

/** The files `argv` makes run, in order; `depth` bounds unwrapping (`env VAR=1 node x.js`). */
export function filesNamedBy(argv: readonly string[], depth = 0): NamedFile[] {
  const [command, ...args] = argv;
  if (command === undefined || command === '') return [];
  const out: NamedFile[] = [command.includes('/') ? { kind: 'path', spec: command } : { kind: 'program', spec: command }];
  const name = baseName(command);
  if (name === 'env' && depth < 3) {
    // env [-i] [-u NAME] [NAME=VALUE]... PROGRAM ARGS
    let i = 0;
    while (i < args.length && (args[i]!.startsWith('-') || /^[A-Za-z_][A-Za-z0-9_]*=/.test(args[i]!))) i += args[i] === '-u' || args[i] === '-C' ? 2 : 1;
    return [...out, ...filesNamedBy(args.slice(i), depth + 1)];
  }
  if (PACKAGE_MANAGERS.has(name)) return [...out, ...packageScript(name, args)];
  const interpreter = interpreterOf(name);
  return interpreter ? [...out, ...interpreterFiles(interpreter, args)] : out;
}

function interpreterFiles(it: Interpreter, args: readonly string[]): NamedFile[] {
  const out: NamedFile[] = [];
  let i = it.subcommands?.has(args[0] ?? '') ? 1 : 0;
  for (; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      if (args[i + 1] !== undefined) out.push({ kind: 'path', spec: args[i + 1]! });
      return out;
    }
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const [option, attached] = eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
    const value = () => attached ?? args[++i];
    if (it.code.has(option)) return out;
    if (it.module !== undefined && (option === it.module || (option.startsWith(it.module) && !option.startsWith('--')))) {
      const mod = option === it.module ? value() : option.slice(it.module.length);
      if (mod) out.push({ kind: 'python-module', spec: mod });
      return out;
    }
    if (it.files.has(option) || it.modules?.has(option)) {
      const file = value();
      // `node -r dotenv/config` names a package; `-r ./setup.js`, `--env-file .env`, `php -f x.php` name files.
      if (file && (it.files.has(option) || looksLikePath(file))) out.push({ kind: 'path', spec: file });
      if (option === '-f' || option === '--file') return out;
      continue;
    }
    if (it.values.has(option)) {
      if (attached === undefined) i++;
      continue;
    }
    if (arg.startsWith('-') || arg.startsWith('+')) {
      // A cluster of short flags holding a code letter (`bash -ec`, `python3 -uc`) is code.
      if (it.clusters && /^-[A-Za-z]{2,4}$/.test(arg) && [...it.code].some((c) => c.length === 2 && arg.slice(1).includes(c[1]!))) return out;
      continue;
    }
    out.push({ kind: 'path', spec: arg });
    return out;
  }
  return out;
}

function packageScript(manager: string, args: readonly string[]): NamedFile[] {
  const words = args.filter((a) => !a.startsWith('-'));
  const [first, second] = words;
  if (first === undefined) return [];
  if (first === 'run' || first === 'run-script') return second ? [{ kind: 'package-script', spec: second, implicit: false }] : [];
  if (LIFECYCLE_SCRIPTS.has(first)) return [{ kind: 'package-script', spec: first === 't' ? 'test' : first, implicit: false }];
  if (manager !== 'npm' && !MANAGER_COMMANDS.has(first)) return [{ kind: 'package-script', spec: first, implicit: true }];
  return [];
}

/** A package.json script line, split into the simple commands it runs (`a && b; c | d`), word by word. */
export function scriptCommands(line: string): string[][] {
  return line
    .split(/&&|\|\||[;|&\n]/)
    .map((part) => {
      const words = part.trim().split(/\s+/).filter(Boolean);
      // Leading `NAME=value` words set the environment; the program comes after them.
      const program = words.findIndex((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
      return program < 0 ? [] : words.slice(program);
    })
    .filter((words) => words.length > 0);
}
