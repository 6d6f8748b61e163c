import { expect } from '@open-wc/testing';
import { languageKey, loadStrings, STRINGS, stringsFor } from '../../src/i18n/strings.js';
import { openChatLabel } from '../../src/shell/launcher-label.js';

describe('strings', () => {
  const table: [string | undefined, string][] = [['EL', 'el'], ['de-AT', 'de'], ['en_GB', 'en'], ['fr', 'en'], ['', 'en'], [undefined, 'en']];
  for (const [language, key] of table) it(`${language} → ${key}`, () => expect(languageKey(language)).to.equal(key));

  it('English is built in; another language loads once, when asked for', async () => {
    expect(loadStrings('EN'), 'English').to.equal(undefined);
    expect(stringsFor('fr').send, 'no table: English').to.equal('Send');
    await loadStrings('el');
    expect(stringsFor('EL').send).to.equal('Αποστολή');
    expect(loadStrings('el-GR'), 'loaded already').to.equal(undefined);
  });

  it('every language has every string', async () => {
    await Promise.all(['el', 'de'].map(loadStrings));
    const keys = Object.keys(STRINGS.en).sort();
    for (const [language, strings] of Object.entries(STRINGS)) expect(Object.keys(strings).sort(), language).to.deep.equal(keys);
  });

  it('each table as it ships (its values only, in the English keys\' order: scripts/locale-values.mjs) is the table as written: each key its own words', async () => {
    await Promise.all(['el', 'de'].map(loadStrings));
    // A word of each kind per table, at the start, middle and end, and the functions called.
    expect(STRINGS.de.openChat).to.equal('Chat öffnen');
    expect(STRINGS.de.retryingIn(5)).to.equal('neuer Versuch in 5 s');
    expect(STRINGS.de.errorNetwork).to.equal('Der Assistent ist nicht erreichbar.');
    expect(STRINGS.de.characterCount(1990, 2000)).to.equal('1.990 / 2.000');
    expect(STRINGS.de.you).to.equal('Sie');
    expect(STRINGS.el.closeChat).to.equal('Κλείσιμο συνομιλίας');
    expect(STRINGS.el.newMessages(2)).to.contain('2');
    expect(STRINGS.el.you).to.equal('Εσείς');
    for (const [language, strings] of Object.entries(STRINGS)) {
      for (const [key, value] of Object.entries(strings)) expect(typeof value, `${language}.${key}`).to.equal(typeof STRINGS.en[key as keyof typeof strings]);
    }
  });

  it('the shell labels the launcher with the same words as the strings tables, before they load', async () => {
    for (const language of ['EN', 'el', 'de-AT', 'fr', undefined]) {
      await loadStrings(language);
      expect(openChatLabel(language), String(language)).to.equal(stringsFor(language).openChat);
    }
  });

  it('overrides replace single strings', async () => {
    await loadStrings('de');
    const strings = stringsFor('DE', { send: 'Los' });
    expect(strings.send).to.equal('Los');
    expect(strings.restart).to.equal('Neues Gespräch');
  });
});
