import type { ShellWord } from './shell-words.ts';

/**
 * Whether a `sed` command only prints: no in-place edit (`-i`), no script file the guard cannot see
 * (`-f`), and no script command that writes a file or runs one (`w`, `W`, the `s///w` and `s///e`
 * flags, `e`). The script is read command by command (addresses, `s` and `y` with any delimiter);
 * anything it does not know makes sed a writer, never a reader.
 */
export function readsOnlyAsSed(argv: ShellWord[]): boolean {
  const scripts: ShellWord[] = [];
  let operandScript = true;
  for (let i = 1; i < argv.length; i++) {
    const t = argv[i]!.text;
    if (t === '--') break;
    if (/^-[a-zA-Z]*i|^--in-place|^-[a-zA-Z]*f|^--file|^-s$|^--separate/.test(t) && !/^-[nEr]+$/.test(t)) return false;
    if (t === '-e' || t === '--expression') {
      const s = argv[++i];
      if (!s) return false;
      scripts.push(s);
      operandScript = false;
    } else if (t.startsWith('--expression=')) {
      scripts.push({ ...argv[i]!, text: t.slice('--expression='.length) });
      operandScript = false;
    } else if (t.startsWith('-') && t !== '-') continue;
    else if (operandScript) {
      scripts.push(argv[i]!);
      operandScript = false;
    }
  }
  return scripts.length > 0 && scripts.every((s) => !s.computed && !s.params && s.substitutions.length === 0 && printsOnly(s.text));
}

class Unknown extends Error {}

/** Reads one sed script; false at the first command that writes, runs or is not known. */
function printsOnly(script: string): boolean {
  let i = 0;
  const at = () => script[i];
  const skipDelimited = (delim: string) => {
    while (i < script.length && script[i] !== delim) {
      if (script[i] === '\\') i++;
      if (script[i] === '\n' && delim !== '\n') throw new Unknown();
      i++;
    }
    if (i >= script.length) throw new Unknown();
    i++;
  };
  const skipAddress = () => {
    if (at() === '/') {
      i++;
      skipDelimited('/');
      while (at() === 'I' || at() === 'M') i++;
    } else if (at() === '\\') {
      const d = script[i + 1];
      if (!d) throw new Unknown();
      i += 2;
      skipDelimited(d);
    } else while (i < script.length && /[0-9$~+]/.test(script[i]!)) i++;
  };
  try {
    while (i < script.length) {
      while (i < script.length && /[\s;}]/.test(script[i]!)) i++;
      if (i >= script.length) break;
      skipAddress();
      if (at() === ',') {
        i++;
        skipAddress();
      }
      while (at() === ' ' || at() === '!') i++;
      const c = script[i++];
      if (c === undefined) return true;
      if ('wWe'.includes(c)) return false;
      if (c === 's') {
        const d = script[i++];
        if (!d || d === '\n' || d === '\\') return false;
        skipDelimited(d);
        skipDelimited(d);
        const flags = /^[gpiImM0-9]*/.exec(script.slice(i))![0];
        i += flags.length;
        if (/^[we]/.test(script.slice(i))) return false;
      } else if (c === 'y') {
        const d = script[i++];
        if (!d) return false;
        skipDelimited(d);
        skipDelimited(d);
      } else if ('aic'.includes(c) || 'rRbtT:'.includes(c)) {
        // Text to append, a file to read, a label: up to the end of the line (labels also end at `;`).
        while (i < script.length && script[i] !== '\n' && !('bt:T'.includes(c) && script[i] === ';')) i++;
      } else if (c === '{') continue;
      else if (!'pPlLdDnNgGhHxqQz=F'.includes(c)) return false;
    }
    return true;
  } catch (e) {
    if (e instanceof Unknown) return false;
    throw e;
  }
}
