/**
 * Where a JSON text stops being JSON. V8 names the position for some syntax errors but not for an
 * unexpected token (`Unexpected token 'x', "..." is not valid JSON`), and the one-line error must
 * still say which line. Only called after `JSON.parse` failed, so it favours brevity over speed.
 */
export function jsonErrorOffset(text: string): number {
  type Expect = 'value' | 'value-or-close' | 'key' | 'key-or-close' | 'colon' | 'comma-or-close' | 'end';
  const stack: string[] = [];
  let expect: Expect = 'value';
  let i = 0;
  const afterValue = (): Expect => (stack.length > 0 ? 'comma-or-close' : 'end');
  for (;;) {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
    if (i >= text.length) return text.length;
    const c = text[i];
    if (expect === 'end') return i;
    if (expect === 'colon') {
      if (c !== ':') return i;
      i++;
      expect = 'value';
    } else if (expect === 'comma-or-close') {
      if (c === ',') expect = stack[stack.length - 1] === '{' ? 'key' : 'value';
      else if (c === (stack[stack.length - 1] === '{' ? '}' : ']')) stack.pop(), (expect = afterValue());
      else return i;
      i++;
    } else if (expect === 'key' || expect === 'key-or-close') {
      if (expect === 'key-or-close' && c === '}') stack.pop(), i++, (expect = afterValue());
      else if (c !== '"') return i;
      else {
        const end = stringEnd(text, i);
        if (end < 0) return -end;
        i = end;
        expect = 'colon';
      }
    } else if (expect === 'value-or-close' && c === ']') stack.pop(), i++, (expect = afterValue());
    else if (c === '{' || c === '[') stack.push(c), i++, (expect = c === '{' ? 'key-or-close' : 'value-or-close');
    else if (c === '"') {
      const end = stringEnd(text, i);
      if (end < 0) return -end;
      i = end;
      expect = afterValue();
    } else {
      LITERAL.lastIndex = i;
      if (!LITERAL.test(text)) return i;
      i = LITERAL.lastIndex;
      expect = afterValue();
    }
  }
}

const LITERAL = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?(?![\w.+-])|true\b|false\b|null\b/y;
const ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;

/** The offset after the string starting at `start`, or minus the offset of its first bad character. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x22) return i + 1;
    if (code < 0x20) return -i;
    if (code === 0x5c) {
      ESCAPE.lastIndex = i;
      if (!ESCAPE.test(text)) return -i;
      i = ESCAPE.lastIndex - 1;
    }
  }
  return -text.length;
}
