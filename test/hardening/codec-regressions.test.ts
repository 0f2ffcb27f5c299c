import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as v from 'valibot';
import { createMemoryHost, createStateStore, jsonCodec, SluiceError, yamlCodec } from '../../core/index.ts';
import { yamlViolations } from '../../plugins/sdlc-views/profile-validate/yaml-violations.ts';
import { ProfileSchema } from '../../plugins/sdlc/profile/profile-schema.ts';
import { safeYamlCodec } from '../../plugins/sdlc/state/safe-yaml-codec.ts';

/**
 * Failures the reader fuzzing found in the codecs every data file goes through, each kept as the
 * case that found it. Before the fixes these ended in a RangeError far from the file, a V8 abort,
 * or minutes of CPU.
 */
const Loose = v.looseObject({ count: v.number() });
const state = (path: string) => ({ path, schema: Loose, invariant: () => undefined });

async function storeWith(path: string, text: string) {
  const host = createMemoryHost({ files: { [path]: text } });
  return { host, store: createStateStore({ host, lockWaitMs: 50, display: (p) => p.replace('/project/', '') }) };
}

const corrupt = (file: string, message: RegExp) => (e: unknown) => {
  assert.ok(e instanceof SluiceError, `a SluiceError, not ${String(e)}`);
  assert.equal(e.code, 'STATE_CORRUPT');
  assert.equal(e.file, file);
  assert.match(e.message, message);
  return true;
};

describe('codec regressions found by fuzzing', () => {
  it('10^5 nested brackets in YAML are refused naming the line, again and again (the second such parse aborted V8)', async () => {
    const deep = `count: 1\nx: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`;
    const { host, store } = await storeWith('/project/state.yaml', deep);
    for (let i = 0; i < 3; i++) await assert.rejects(store.read(state('/project/state.yaml')), corrupt('state.yaml', /nested more than 100 levels deep/));
    for (const codec of [yamlCodec, safeYamlCodec])
      for (let i = 0; i < 3; i++) assert.throws(() => codec.parse(`${'- '.repeat(100_000)}x`), /nested more than 100 levels/);
    assert.equal(host.writes('/project/state.yaml'), 0);
  });

  it('a JSON state with a deeply nested unknown key is refused when read, not by a RangeError when written back', async () => {
    const text = `{ "count": 1, "x_extra": ${'['.repeat(5000)}${']'.repeat(5000)} }`;
    const { host, store } = await storeWith('/project/state.json', text);
    await assert.rejects(
      store.update(state('/project/state.json'), (s) => ({ ...s, count: s.count + 1 })),
      corrupt('state.json', /nested more than 100 levels deep/),
    );
    assert.equal(host.files()['/project/state.json'], text, 'untouched');
  });

  it('a YAML alias that contains itself is refused when read, not by a stack overflow when the state is written back', async () => {
    for (const extra of ['x: &loop [*loop]', 'x: &loop\n  again: *loop']) {
      const text = `count: 1\n${extra}\n`;
      const { host, store } = await storeWith('/project/state.yaml', text);
      await assert.rejects(
        store.update(state('/project/state.yaml'), (s) => ({ ...s, count: 2 })),
        corrupt('state.yaml', /alias refers to a node that contains it/),
      );
      assert.equal(host.files()['/project/state.yaml'], text);
      assert.throws(() => safeYamlCodec.parse(text), /a cycle/);
    }
    // Shared (non-cyclic) aliases are still fine, and still capped.
    assert.deepEqual(yamlCodec.parse('a: &x [1]\nb: *x\n'), { a: [1], b: [1] });
  });

  // Its time (the quadratic check took about 50 s) is measured by `npm run bench -- kernel`, not here.
  it('YAML with 50,000 keys parses, and duplicates are still refused', () => {
    const many = Array.from({ length: 50_000 }, (_, i) => `k${i}: ${i}`).join('\n');
    const value = yamlCodec.parse(many) as Record<string, number>;
    assert.equal(value.k49999, 49999);
    assert.throws(() => yamlCodec.parse('a: 1\nb: {x: 1, x: 2}\n'), /Map keys must be unique \(line 2, column 11\)/);
    assert.throws(() => yamlCodec.parse(`${many}\nk7: again`), /Map keys must be unique \(line 50001, column 1\)/);
    assert.throws(() => safeYamlCodec.parse('1: a\n"1": b\n'), /duplicate key "1"/);
  });

  it('a JSON number too large for a double is refused when read (Infinity passed v.number() and was written back as null, breaking the file)', async () => {
    const Reroute = v.looseObject({ repair_round: v.number() });
    const file = { path: '/project/state.json', schema: Reroute };
    const text = '{ "repair_round": 1e999 }';
    const { host, store } = await storeWith(file.path, text);
    await assert.rejects(
      store.update(file, (s) => ({ ...s, note: 'x' })),
      corrupt('state.json', /too large to be read exactly/),
    );
    assert.equal(host.files()[file.path], text, 'untouched');
    // An update that computes Infinity is refused too, and nothing is written.
    const ok = await storeWith(file.path, '{ "repair_round": 1 }');
    await assert.rejects(
      ok.store.update(file, (s) => ({ ...s, repair_round: s.repair_round / 0 })),
      { code: 'INVARIANT_VIOLATED', message: /does not read back/ },
    );
    assert.equal(ok.host.writes(file.path), 0);
  });

  it('a JSON syntax error names its line and column, also when V8 does not give a position', () => {
    assert.throws(
      () => jsonCodec.parse('{\n  "verdict": "TEST_PASS",\n  "counts": tru\n}'),
      (e: Error) => {
        assert.equal(e.message, "Unexpected token '\\n' (line 3, column 13)");
        return true;
      },
    );
    assert.throws(() => jsonCodec.parse('{"a": 1} trailing'), { message: 'Unexpected non-whitespace character after JSON (line 1, column 10)' });
    assert.throws(() => jsonCodec.parse('\n\nAF!7a'), { message: "Unexpected token 'A' (line 3, column 1)" });
  });

  it('YAML tags for bytes, dates, sets and ordered maps read as plain data, so a rewrite keeps them (a Set came back a list, a Date a string)', async () => {
    const text = 'count: 1\nx_bin: !!binary aGVsbG8=\nx_when: !!timestamp 2001-12-14\nx_set: !!set {a, b}\nx_omap: !!omap [a: 1]\n';
    const expected = { count: 2, x_bin: 'aGVsbG8=', x_when: '2001-12-14', x_set: { a: null, b: null }, x_omap: [{ a: 1 }] };
    const { host, store } = await storeWith('/project/state.yaml', text);
    const { after } = await store.update(state('/project/state.yaml'), (s) => ({ ...s, count: 2 }));
    assert.deepEqual(after, expected);
    assert.deepEqual(await store.read(state('/project/state.yaml')), expected, 'read back after the rewrite');
    assert.deepEqual(safeYamlCodec.parse(host.files()['/project/state.yaml']), expected);
  });

  it('a YAML merge of something other than maps names the line of its `<<` (the library gives no position)', () => {
    assert.throws(() => safeYamlCodec.parse('<<: #null\n- ~\n- \n'), { message: 'Merge sources must be maps or map aliases (line 1, column 1)' });
    assert.throws(() => safeYamlCodec.parse('a: 1\nb:\n  <<: [1, 2]\n'), { message: 'Merge sources must be maps or map aliases (line 3, column 3)' });
    assert.deepEqual(safeYamlCodec.parse('a: &x {k: 1}\nb:\n  <<: *x\n  z: 2\n'), { a: { k: 1 }, b: { k: 1, z: 2 } });
  });

  it('`sluice profile validate` reports a 10^5-deep profile as one violation instead of crashing', () => {
    const check = yamlViolations(`profile_id: x\nquality: ${'['.repeat(100_000)}`, ProfileSchema, 'profile.yaml');
    assert.equal(check.violations.length, 1);
    assert.match(check.violations[0].message, /nested more than 100 levels deep/);
    assert.equal(check.violations[0].line, 2);
  });
});
