/**
 * What a visitor does in a tab of any engine (test/tabs/engine-tab.ts), through the widget's parts,
 * and what the widget shows: for the suites that drive the three engines from Node
 * (back-forward.test.ts, reload-mid-answer.test.ts).
 */
import type { Tab } from './engine-tab.js';
import { poll } from './scenarios.js';

/** In the page: the text of each bubble the widget shows, in order. */
export const shown = () => [...document.querySelector('agent-chat')?.shadowRoot?.querySelectorAll('[part~="bubble"]') ?? []].map((node) => node.textContent!.trim());

/** The visitor opens the panel if it is closed (a page loaded again shows it closed). */
export const open = (tab: Tab) => tab.evaluate(() => {
  const launcher = document.querySelector('agent-chat')?.shadowRoot?.querySelector<HTMLElement>('[part~="launcher"]');
  if (launcher?.getAttribute('aria-expanded') === 'false') launcher.click();
  return !!launcher;
}, null);

/** Types `text` into the composer of the open panel, as a visitor does. */
export const type = (tab: Tab, text: string) => tab.evaluate((text) => {
  const input = document.querySelector('agent-chat')!.shadowRoot!.querySelector<HTMLTextAreaElement>('[part~="input"]')!;
  input.value = text;
  input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
}, text);

/** What the composer holds ('' while the panel is not drawn). */
export const draftIn = (tab: Tab) => tab.evaluate(() => document.querySelector('agent-chat')?.shadowRoot?.querySelector<HTMLTextAreaElement>('[part~="input"]')?.value ?? '', null);

/** Types `text` and presses Send; resolves once the agent's answer shows (with `answered` false, once it is sent). */
export async function say(tab: Tab, engine: string, text: string, answered = true) {
  await poll(() => open(tab), `${engine}: the launcher is there`);
  await poll(() => tab.evaluate(() => !!document.querySelector('agent-chat')?.shadowRoot?.querySelector('[part~="input"]'), null), `${engine}: the panel is open`);
  await type(tab, text);
  await poll(() => tab.evaluate(() => {
    const send = document.querySelector('agent-chat')!.shadowRoot!.querySelector<HTMLButtonElement>('[part~="send-button"]')!;
    return !send.disabled && (send.click(), true);
  }, null), `${engine}: Send can be pressed`);
  if (answered) await poll(async () => (await tab.evaluate(shown, null)).includes(`You said: ${text}`), `${engine}: "${text}" is answered`);
}
