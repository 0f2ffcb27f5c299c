// esbuild plugin for the CLI runner's CommonJS build (build-cli-cache.mjs): Node built-in modules that a
// short command such as `sluice gate` never calls (child processes, streams, fs/promises...) are
// required on first use instead of when the bundle starts. A CommonJS bundle requires every import
// at start-up, and loading these costs a few ms of a ~60 ms command.
import { builtinModules, createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const NAMESPACE = 'lazy-builtin';

/**
 * `modules`: names without `node:`. Each import of one becomes a small module whose exports are
 * getters that require the real module the first time any of them is read. The export names are the
 * build's Node's; code only uses names its types knew, so a name missing at run time reads as
 * undefined exactly as the real module would give it.
 */
export function lazyBuiltins(modules) {
  for (const name of modules) if (!builtinModules.includes(name)) throw new Error(`lazy-builtins: ${name} is no Node built-in module`);
  const filter = new RegExp(`^(node:)?(${modules.map((m) => m.replace(/[/]/g, '\\/')).join('|')})$`);
  return {
    name: 'lazy builtins',
    setup(b) {
      b.onResolve({ filter }, (args) =>
        args.namespace === NAMESPACE ? { path: args.path, external: true } : { path: args.path.replace(/^node:/, ''), namespace: NAMESPACE },
      );
      b.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => {
        const spec = JSON.stringify(`node:${args.path}`);
        const getters = Object.keys(require(`node:${args.path}`))
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
