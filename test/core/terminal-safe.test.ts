import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { escapeControl, jsonSafe, terminalSafe } from '../../core/text/terminal-safe.ts';

describe('terminal-safe text', () => {
  it('escapes C0, DEL, C1, bidi overrides and isolates, and line separators as visible escapes', () => {
    assert.equal(
      escapeControl('a\u001b[2Jb\rc\u0007d\u007fe\u009bf\u202eg\u2066h\u2069i\u2028j'),
      'a\\x1b[2Jb\\x0dc\\x07d\\x7fe\\x9bf\\u202eg\\u2066h\\u2069i\\u2028j',
    );
    assert.equal(escapeControl('line\nnext\ttab'), 'line\\x0anext\\x09tab', 'a value is one line');
    assert.equal(escapeControl('plain ünïcode ✓ 日本'), 'plain ünïcode ✓ 日本');
  });

  it('a printed block keeps its newlines and tabs, and only sluice’s own colour codes when asked', () => {
    assert.equal(terminalSafe('a\n\tb\u001b[2Kc'), 'a\n\tb\\x1b[2Kc');
    const styled = '\u001b[31merror\u001b[39m \u001b[1mbold\u001b[22m';
    assert.equal(terminalSafe(styled, { keepStyle: true }), styled);
    assert.equal(terminalSafe(styled), '\\x1b[31merror\\x1b[39m \\x1b[1mbold\\x1b[22m', 'without colour every ESC is data');
    assert.equal(terminalSafe('\u001b[8mhidden\u001b[2A', { keepStyle: true }), '\\x1b[8mhidden\\x1b[2A', 'conceal and cursor moves are never ours');
  });

  it('JSON keeps its meaning but shows bidi characters escaped', () => {
    const text = JSON.stringify({ name: 'a\u202eb\u2066c' });
    assert.equal(jsonSafe(text), '{"name":"a\\u202eb\\u2066c"}');
    assert.deepEqual(JSON.parse(jsonSafe(text)), { name: 'a\u202eb\u2066c' });
  });
});
