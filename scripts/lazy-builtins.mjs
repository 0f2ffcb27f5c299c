// esbuild plugins that make a module load on first use instead of when the bundle starts. A CommonJS
// bundle requires every import at start-up. For the CLI runner's CommonJS build (build-cli-cache.mjs):
// Node built-in modules that a short command such as `sluice gate` never calls (child processes,
// streams, fs/promises...), whose loading costs a few ms of a ~60 ms command. For every build of the
// kernel: the plain `yaml` import, which only a caller without a Host reaches (the Host provides the
// library, Host.yaml). Neither is a swap: the very module the source names is loaded, only later.
import { builtinModules, createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * Each import of one of `modules` becomes a small module whose exports are getters that require
 * `specifier(name)` the first time any of them is read. The export names are the build's copy's; code
 * only uses names its types knew, so a name missing at run time reads as undefined exactly as the real
 * module would give it.
 */
function lazyModules(modules, namespace, specifier) {
  const filter = new RegExp(`^(node:)?(${modules.map((m) => m.replace(/[/]/g, '\\/')).join('|')})$`);
  return {
    name: namespace,
    setup(b) {
      b.onResolve({ filter }, (args) =>
        args.namespace === namespace ? { path: args.path, external: true } : { path: args.path.replace(/^node:/, ''), namespace },
      );
      b.onLoad({ filter: /.*/, namespace }, (args) => {
        const spec = JSON.stringify(specifier(args.path));
        const getters = Object.keys(require(specifier(args.path)))
          .filter((key) => key !== 'default' && key !== '__esModule')
          .map((key) => `${JSON.stringify(key)}:{get:()=>load()[${JSON.stringify(key)}],enumerable:true}`);
        return {
          contents: `let real;const load=()=>real??=require(${spec});Object.defineProperties(exports,{${getters.join(',')}});`,
          loader: 'js',
        };
      });
    },
  };
}

/** `modules`: Node built-in modules, names without `node:`. */
export function lazyBuiltins(modules) {
  for (const name of modules) if (!builtinModules.includes(name)) throw new Error(`lazy-builtins: ${name} is no Node built-in module`);
  return lazyModules(modules, 'lazy-builtin', (name) => `node:${name}`);
}

/** `packages`: installed packages (dependencies of sluice), required from the bundle's folder at run time. */
export function lazyPackages(packages) {
  for (const name of packages) if (builtinModules.includes(name) || name.startsWith('.')) throw new Error(`lazy-builtins: ${name} is no package name`);
  return lazyModules(packages, 'lazy-package', (name) => name);
}
