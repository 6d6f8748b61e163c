import { expect } from '@open-wc/testing';
import { languageKey, STRINGS, stringsFor } from '../../src/i18n/strings.js';

describe('strings', () => {
  const table: [string | undefined, string][] = [['EL', 'el'], ['de-AT', 'de'], ['en_GB', 'en'], ['fr', 'en'], ['', 'en'], [undefined, 'en']];
  for (const [language, key] of table) it(`${language} → ${key}`, () => expect(languageKey(language)).to.equal(key));

  it('every language has every string', () => {
    const keys = Object.keys(STRINGS.en).sort();
    for (const [language, strings] of Object.entries(STRINGS)) expect(Object.keys(strings).sort(), language).to.deep.equal(keys);
  });

  it('overrides replace single strings', () => {
    const strings = stringsFor('DE', { send: 'Los' });
    expect(strings.send).to.equal('Los');
    expect(strings.restart).to.equal('Neues Gespräch');
  });
});
