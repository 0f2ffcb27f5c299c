import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseYamlDocument, yamlToData } from '../../core/index.ts';
import { stringifyForPyYaml, stringifyWhole } from '../../plugins/sdlc/state/pyyaml-safe-stringify.ts';
import { safeYamlCodec } from '../../plugins/sdlc/state/safe-yaml-codec.ts';

/**
 * A long state.yaml is read with its history block entry by entry (history-block.ts) and written a
 * chunk at a time: both must give exactly what reading and writing the whole file with the yaml
 * library gives, for sluice's layout, PyYAML's (indentless sequences), and entries the plain reader
 * leaves to the library (block scalars, escapes, numbers); and errors stay the whole-file read's.
 */
const whole = (text: string) => yamlToData(parseYamlDocument(text, { merge: true }));

const ODD = [
  '  justification: |-\n    two lines\n    # not a comment\n',
  '  justification: "tab\\tand \\u00e9 and \\x41"\n',
  '  count: 3.5\n  hex: 0x1F\n  when: 2026-01-01\n',
  "  note: 'it''s: fine'\n  flag: yes\n  empty: []\n  map: {}\n  none: ~\n",
  "  results:\n  - gate: G1\n    passed: null\n    message: 'x: y'\n  - gate: G2\n    passed: true\n",
  '  "quoted key": 1\n  list:\n    - a\n    - -3\n    -\n      nested: true\n',
];

function history(n: number, indent: string): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    let item = `- from: '0'\n  to: "1"\n  at: '2026-01-01T00:${String(i % 60).padStart(2, '0')}:00Z'\n  gate_results:\n    passed: ${i}\n    failed: 0\n  confirmed_by: person ${i}\n`;
    if (i % 97 === 0) item += ODD[(i / 97) % ODD.length];
    if (i % 211 === 0) item += '# a comment between entries\n\n';
    lines.push(item.replace(/^(?=.)/gm, indent));
  }
  return lines.join('');
}

const state = (body: string) => `version: "1.0"\nproject_name: big\ncurrent_phase: "0"\nhistory:\n${body}frozen_files:\n  a.yaml: null\n`;

describe('reading a long state.yaml', () => {
  for (const [layout, indent] of [
    ['sluice (indented)', '  '],
    ['PyYAML (indentless)', ''],
  ]) {
    it(`gives what the whole-file read gives: ${layout}`, () => {
      const text = state(history(1500, indent));
      assert.ok(text.length > 64 * 1024);
      const split = safeYamlCodec.parse(text);
      assert.deepEqual(split, whole(text));
      assert.deepEqual(Object.keys(split as object), ['version', 'project_name', 'current_phase', 'history', 'frozen_files']);
    });
  }

  it('reports an error in the history with the whole-file line', () => {
    const body = history(1500, '  ');
    const broken = state(`${body}  - from: '0'\n    from: '1'\n`);
    const line = broken.split('\n').indexOf("    from: '1'") + 1;
    assert.throws(
      () => safeYamlCodec.parse(broken),
      (e: Error & { line?: number }) => e.line === line && /unique|duplicate/.test(e.message),
    );
    assert.throws(() => safeYamlCodec.parse(state(`${body}  - __proto__: 1\n`)), /__proto__/);
  });

  it('a second history key is the duplicate it is', () => {
    assert.throws(() => safeYamlCodec.parse(`${state(history(1500, '  '))}history: []\n`), /unique|duplicate/);
  });
});

describe('writing a long state.yaml', () => {
  it('writes the same text as one document, which reads back the same', () => {
    const value = safeYamlCodec.parse(state(history(1500, '  '))) as { history: Record<string, unknown>[] };
    value.history[3].justification = 'two\n\nparagraphs\n  indented\n';
    const text = stringifyForPyYaml(value);
    assert.equal(text, stringifyWhole(value));
    assert.deepEqual(safeYamlCodec.parse(text), value);
  });
});
