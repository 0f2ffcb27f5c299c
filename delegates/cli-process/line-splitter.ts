import { concatBytes } from './bounded-capture.ts';

/**
 * Splits a byte stream into lines for JSONL formats (claude stream-json, codex --json) as it
 * arrives. A line longer than `maxLineBytes` is skipped and counted, never accumulated without bound.
 */
export interface LineSplitter {
  push(chunk: Uint8Array): void;
  /** Flushes a final line without a newline. */
  end(): void;
  readonly oversizeLines: number;
}

export function createLineSplitter(onLine: (line: string) => void, maxLineBytes: number): LineSplitter {
  const decoder = new TextDecoder();
  let pending: Uint8Array[] = [];
  let pendingSize = 0;
  let skipping = false;
  let oversize = 0;

  const emit = (last: Uint8Array) => {
    const bytes = pendingSize === 0 ? last : concatBytes([...pending, last]);
    pending = [];
    pendingSize = 0;
    const line = decoder.decode(bytes).replace(/\r$/, '');
    if (line.trim() !== '') onLine(line);
  };

  const keep = (part: Uint8Array) => {
    if (skipping || part.length === 0) return;
    if (pendingSize + part.length > maxLineBytes) {
      skipping = true;
      oversize++;
      pending = [];
      pendingSize = 0;
      return;
    }
    pending.push(part.slice());
    pendingSize += part.length;
  };

  return {
    push(chunk) {
      let start = 0;
      for (let nl = chunk.indexOf(10, start); nl !== -1; nl = chunk.indexOf(10, start)) {
        const part = chunk.subarray(start, nl);
        if (skipping) skipping = false;
        else if (pendingSize + part.length > maxLineBytes) oversize++, (pending = []), (pendingSize = 0);
        else emit(part);
        start = nl + 1;
      }
      keep(chunk.subarray(start));
    },
    end() {
      if (!skipping && pendingSize > 0) emit(new Uint8Array(0));
      skipping = false;
    },
    get oversizeLines() {
      return oversize;
    },
  };
}
