import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as v from 'valibot';
import { createMemoryHost, fillPlaceholders, loadBundledPrompt, splitFrontmatter } from '../../core/index.ts';

/** One reading of markdown frontmatter for skills, prompts and specs; one loader for the prompts sluice ships. */
describe('frontmatter', () => {
  it('splits the block from the body, allowing a BOM, CRLF, trailing spaces and a `...` end', () => {
    assert.deepEqual(splitFrontmatter('---\nname: a\n---\nbody\n---\nrule\n'), { yaml: 'name: a\n', firstLine: 2, body: 'body\n---\nrule\n' });
    assert.deepEqual(splitFrontmatter('\uFEFF--- \r\nname: a\r\n...\r\nbody'), { yaml: 'name: a\r\n', firstLine: 2, body: 'body' });
    assert.deepEqual(splitFrontmatter('---\n---\n'), { yaml: '', firstLine: 2, body: '' });
    assert.deepEqual(splitFrontmatter('---\nname: a\n---'), { yaml: 'name: a\n', firstLine: 2, body: '' });
  });

  it('tells a file without frontmatter (undefined) from one whose block never closes (null)', () => {
    assert.equal(splitFrontmatter('# Title\n---\n'), undefined);
    assert.equal(splitFrontmatter('----\nname: a\n---\n'), undefined);
    assert.equal(splitFrontmatter('---\nname: a\n----\nbody\n'), null);
  });
});

describe('bundled prompts', () => {
  const Schema = v.object({ role: v.string() });
  const hostWith = (text: string) => createMemoryHost({ assetRoot: '/opt/sluice', files: { '/opt/sluice/skills/demo/p.md': text } });

  it('loads from where the host says sluice is installed, checks the frontmatter and keeps the body', async () => {
    const p = await loadBundledPrompt(hostWith('---\nrole: execute\n---\nHello {{who}}\n'), ['skills', 'demo', 'p.md'], Schema);
    assert.deepEqual(p, { meta: { role: 'execute' }, body: 'Hello {{who}}\n', file: '/opt/sluice/skills/demo/p.md' });
    assert.equal(fillPlaceholders(p.body, { who: '{{who}}' }), 'Hello {{who}}\n', 'inserted text is not scanned again');
    assert.throws(() => fillPlaceholders(p.body, {}), /\{\{who\}\} has no value/);
  });

  it('refuses a prompt without frontmatter or with the wrong fields, naming the file', async () => {
    const host = createMemoryHost({ assetRoot: '/a', files: { '/a/x/none.md': 'no block\n', '/a/x/bad.md': '---\nrole: [1]\n---\nbody\n' } });
    await assert.rejects(loadBundledPrompt(host, ['x', 'none.md'], Schema), { code: 'STATE_INVALID', file: '/a/x/none.md' });
    await assert.rejects(loadBundledPrompt(host, ['x', 'bad.md'], Schema), { code: 'STATE_INVALID' });
  });
});
