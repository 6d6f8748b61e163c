import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { DOMPURIFY_SOURCE, withoutDefaultLists } from '../../scripts/dompurify-source.mjs';

const source = (file: string) => {
  const path = join(dirname(DOMPURIFY_SOURCE), file);
  return { path, code: readFileSync(path, 'utf8') };
};

describe('DOMPurify without its built-in lists (scripts/dompurify-source.mjs)', () => {
  it('empties every list of tags.ts and attrs.ts but #text, and leaves the rest of the module', () => {
    for (const file of ['tags.ts', 'attrs.ts']) {
      const { path, code } = source(file);
      const emptied = withoutDefaultLists(code, path);
      const lists = [...emptied.matchAll(/^export const (\w+) = freeze\((\[[^\]]*\])/gm)].map(([, name, list]) => `${name} ${list}`);
      assert.ok(lists.length >= 4, `${file}: ${lists.join('; ')}`);
      for (const list of lists) assert.match(list, /^(\w+ \[\]|text \['#text'\])$/, file);
      assert.equal(emptied.replace(/^export const \w+ = freeze\(\[[\s\S]*?\](?: as const)?\);$/gm, ''), code.replace(/^export const \w+ = freeze\(\[[\s\S]*?\](?: as const)?\);$/gm, ''), `${file}: only the lists change`);
    }
  });

  it('refuses a release whose lists differ (one added, one renamed), so it is looked at before it ships', () => {
    const { path, code } = source('tags.ts');
    assert.throws(() => withoutDefaultLists(`${code}\nexport const svgExtra = freeze(['x'] as const);\n`, path), /tags\.ts declares .*svgExtra/);
    assert.throws(() => withoutDefaultLists(code.replace('export const mathMl =', 'export const mathML ='), path), /tags\.ts declares .*mathML/);
  });

  it('leaves any other module as it is', () => {
    const { path, code } = source('purify.ts');
    assert.equal(withoutDefaultLists(code, path), code);
  });
});
