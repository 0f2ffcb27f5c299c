import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { describeStats, fuzzReader, type NamedReader } from './fuzz-reader.ts';

/** One test per reader: the property of fuzz-reader.ts over its inputs, with the counts as a diagnostic. */
export function describeReaders(title: string, readers: readonly NamedReader[]): void {
  describe(title, () => {
    for (const { name, spec } of readers) {
      it(name, async (t) => {
        const stats = await fuzzReader(spec);
        t.diagnostic(describeStats(stats));
        assert.ok(stats.accepted > 0, 'some inputs were accepted: the generators reach valid files');
      });
    }
  });
}
