import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { yamlCodec } from '../../core/index.ts';
import { parseFrontmatter } from '../../plugins/sdlc-views/specs/spec-frontmatter.ts';

// Most frontmatter is read by js-yaml for speed; the `yaml` library (the state-file codec) is the
// authority. Whatever the fast reader returns must be exactly what the codec returns for the same block.

/** Scalars where YAML libraries are known to differ: number forms, booleans, nulls, quoting, escapes. */
const TRICKY = [
  '0b101',
  '0o17',
  '0x1F',
  '+0x1',
  '-0o7',
  '1e3',
  '.5',
  '+.5',
  '-.5e-3',
  '+1',
  '-0',
  '1_000',
  '0777',
  '08',
  '09.5',
  '1.',
  'yes',
  'no',
  'on',
  'True',
  'tRUE',
  'NULL',
  '~',
  '.inf',
  '-.Inf',
  '.NaN',
  '2026-01-01',
  '12:30',
  '"C# SDK"',
  "'a: b'",
  '"\\u00e9"',
  '"\\x41"',
  '"\\N"',
  'in-flight # note',
  '[api, sdk]',
  '{a: 1}',
  '"0002"',
  '0002',
  '|\n  block\n  text',
  '>-\n  folded',
  '',
];

const scalar = fc.oneof(fc.constantFrom(...TRICKY), fc.string({ maxLength: 12 }), fc.integer().map(String), fc.double({ noNaN: true }).map(String));
const key = fc.oneof(
  fc.constantFrom('spec', 'name', 'status', 'risk', 'owner', 'tags', '__proto__', 'constructor', '"quoted key"', '1'),
  fc.stringMatching(/^[a-z][a-z_-]{0,8}$/),
);
const line = fc.oneof(
  fc.tuple(key, scalar).map(([k, v]) => `${k}: ${v}`),
  fc.tuple(key, fc.array(scalar, { maxLength: 3 })).map(([k, vs]) => `${k}:\n${vs.map((v) => `  - ${v}`).join('\n')}`),
  fc.constantFrom('# a comment', '', '  indented: x', '- item', 'key without value', '\tTabbed: x'),
);

function viaCodec(yaml: string): { ok: true; data: unknown } | { ok: false } {
  try {
    const data = yamlCodec.parse(yaml);
    return data !== null && typeof data === 'object' && !Array.isArray(data) ? { ok: true, data } : { ok: false };
  } catch {
    return { ok: false };
  }
}

describe('spec frontmatter reader', () => {
  it('gives the same value as the state-file codec for thousands of generated frontmatter blocks', () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 8 }), (lines) => {
        const yaml = `${lines.join('\n')}\n`;
        if (yaml.trim() === '') return;
        const fast = parseFrontmatter(`---\n${yaml}---\nbody\n`);
        const codec = viaCodec(yaml);
        assert.equal(fast.ok, codec.ok, `accepted by one reader only:\n${yaml}`);
        if (fast.ok && codec.ok) assert.deepEqual(fast.data, codec.data, yaml);
      }),
      { seed: 20261201, numRuns: 5000 },
    );
  });

  it('reads the number forms the two libraries disagree on as YAML 1.2 does', () => {
    const r = parseFrontmatter('---\na: 0b101\nb: +0x1\nc: +.5\nd: 0o17\ne: "0002"\nf: 0002\n---\n');
    assert.deepEqual(r, { ok: true, data: { a: '0b101', b: '+0x1', c: 0.5, d: 15, e: '0002', f: 2 } });
  });

  it('keeps a __proto__ key as data and leaves Object.prototype alone', () => {
    const r = parseFrontmatter('---\n__proto__: {polluted: yes}\nname: x\n---\n');
    assert.equal(r.ok, true);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.deepEqual(Object.keys(r.ok ? r.data : {}), ['__proto__', 'name']);
  });
});
