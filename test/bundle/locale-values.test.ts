import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ENGLISH_KEYS, asValues, isLocaleTable } from '../../scripts/locale-values.mjs';

const I18N = new URL('../../src/i18n/', import.meta.url);
const tables = readdirSync(I18N).filter((file) => isLocaleTable(`/src/i18n/${file}`));
const read = (file: string) => ({ path: new URL(file, I18N).pathname, code: readFileSync(new URL(file, I18N), 'utf8') });

describe('the other languages\' UI text ships as values only (scripts/locale-values.mjs)', () => {
  it('finds the tables (not strings.ts, whose English table gives the keys)', () => {
    assert.deepEqual(tables.sort(), ['de.ts', 'el.ts']);
    assert.ok(ENGLISH_KEYS.length > 40 && ENGLISH_KEYS[0] === 'openChat' && ENGLISH_KEYS.at(-1) === 'you', ENGLISH_KEYS.join());
  });

  it("keeps each value, in the English keys' order, on its entry's line, and the rest of the module as it is", () => {
    for (const file of tables) {
      const { path, code } = read(file);
      const shipped = asValues(code, path);
      const [before, after] = [code.split('\n'), shipped.split('\n')];
      assert.equal(after.length, before.length, `${file}: every line where it was`);
      const entries = before.map((line, i) => [line, after[i]] as const).filter(([line]) => /^ {2}\w+: /.test(line));
      assert.equal(entries.length, ENGLISH_KEYS.length, file);
      for (const [line, value] of entries) assert.equal(value, line.replace(/^ {2}\w+: /, '  '), `${file}: the value alone`);
      assert.ok(!ENGLISH_KEYS.some((key) => new RegExp(`\\b${key}:`).test(shipped)), `${file}: no key left`);
      assert.match(shipped, /Object\.keys\(STRINGS\.en\)/, `${file}: made back into a table from the English keys`);
    }
  });

  it('stops the build for a table whose keys are not the English ones in their order, or an entry on two lines', () => {
    const { path, code } = read('de.ts');
    const lines = code.split('\n');
    const at = (key: string) => lines.findIndex((line) => line.startsWith(`  ${key}:`));
    const swapped = [...lines];
    [swapped[at('send')], swapped[at('typing')]] = [lines[at('typing')], lines[at('send')]];
    assert.throws(() => asValues(swapped.join('\n'), path), /entry \d+ is "typing" where "send" is expected/);
    assert.throws(() => asValues(lines.filter((_, i) => i !== at('undo')).join('\n'), path), /is "noAnswer" where "undo" is expected/);
    const extra = [...lines];
    extra.splice(at('you') + 1, 0, "  later: 'Später',");
    assert.throws(() => asValues(extra.join('\n'), path), /its keys must be the English table's, in its order .*: entry \d+ is "later" where nothing is expected/);
    const twoLines = [...lines];
    twoLines.splice(at('send'), 1, '  send:', "    'Senden',");
    assert.throws(() => asValues(twoLines.join('\n'), path), /one entry per line/);
  });

  it('ships so: the built chunks of German and Greek name no key (npm run build)', () => {
    const dist = new URL('../../dist/chunks/', import.meta.url);
    const chunks = readdirSync(dist).filter((file) => /^(de|el)-[\w-]+\.js$/.test(file));
    assert.equal(chunks.length, 2, chunks.join());
    for (const chunk of chunks) {
      const code = readFileSync(new URL(chunk, dist), 'utf8');
      assert.ok(!/\b(openChat|inputPlaceholder|transcriptTitle):/.test(code), `${chunk}: no key`);
      assert.match(code, /Chat öffnen|Άνοιγμα συνομιλίας/, `${chunk}: its words`);
    }
  });
});
