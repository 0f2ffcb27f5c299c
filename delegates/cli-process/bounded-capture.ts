/**
 * Keeps the first and last bytes of a stream and counts the rest, so a CLI that prints 50 MB costs
 * a few MB of memory. The full output lives in the transcript; this is what parsers and errors see.
 */
export interface BoundedCapture {
  push(chunk: Uint8Array): void;
  /** Bytes seen in total. */
  readonly bytes: number;
  /** True when nothing was dropped: `text()` is the whole stream. */
  readonly complete: boolean;
  /** Head and tail, with a marker where bytes were dropped. */
  text(): string;
  /** The last `maxChars` characters (for error messages). */
  tail(maxChars: number): string;
  /** The first `maxChars` characters kept (for errors a CLI prints before a long listing). */
  head(maxChars: number): string;
}

export function createBoundedCapture(headBytes: number, tailBytes = headBytes): BoundedCapture {
  const head: Uint8Array[] = [];
  let headSize = 0;
  let tail: Uint8Array[] = [];
  let tailSize = 0;
  let total = 0;

  const trimTail = () => {
    while (tailSize > tailBytes && tail.length > 0) {
      const first = tail[0];
      const excess = tailSize - tailBytes;
      if (first.length <= excess) {
        tail.shift();
        tailSize -= first.length;
      } else {
        // Copy, so the dropped part of a big chunk can be freed.
        tail[0] = first.slice(excess);
        tailSize -= excess;
      }
    }
  };

  return {
    push(chunk) {
      total += chunk.length;
      let rest = chunk;
      if (headSize < headBytes) {
        const take = Math.min(headBytes - headSize, rest.length);
        head.push(rest.slice(0, take));
        headSize += take;
        rest = rest.subarray(take);
      }
      if (rest.length === 0) return;
      tail.push(rest.length > tailBytes ? rest.slice(rest.length - tailBytes) : rest.slice());
      tailSize += Math.min(rest.length, tailBytes);
      trimTail();
    },
    get bytes() {
      return total;
    },
    get complete() {
      return total === headSize + tailSize;
    },
    text() {
      const decode = (parts: Uint8Array[]) => new TextDecoder().decode(concatBytes(parts));
      if (total === headSize + tailSize) return decode([...head, ...tail]);
      return `${decode(head)}\n[... ${total - headSize - tailSize} bytes not kept in memory; see the transcript ...]\n${decode(tail)}`;
    },
    head(maxChars) {
      const all = new TextDecoder().decode(concatBytes(headSize + tailSize === total ? [...head, ...tail] : head));
      return all.length > maxChars ? all.slice(0, maxChars) : all;
    },
    tail(maxChars) {
      const all = new TextDecoder().decode(concatBytes(tailSize > 0 ? (headSize + tailSize === total ? [...head, ...tail] : tail) : head));
      return all.length > maxChars ? all.slice(all.length - maxChars) : all;
    },
  };
}

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const size = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export const MAX_RESULT_TEXT_CHARS = 1024 * 1024;

/** The answer text a result carries: whole when small, else head and tail around a marker. */
export function boundText(text: string, max = MAX_RESULT_TEXT_CHARS): string {
  if (text.length <= max) return text;
  const half = Math.floor(max / 2);
  return `${text.slice(0, half)}\n[... ${text.length - 2 * half} characters cut; the full output is in the transcript ...]\n${text.slice(text.length - half)}`;
}
