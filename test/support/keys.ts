import { sendKeys } from '@web/test-runner-commands';

/**
 * Shift+Enter as real key presses where the browser driver can hold a modifier (Playwright and
 * puppeteer's BiDi, with down/up: BiDi rejects "Shift+Enter"). Classic WebDriver in
 * @web/test-runner can only press or type (and types "Shift+Enter" literally); there the keydown
 * is dispatched and the newline inserted as the browser would, which still shows that the widget
 * does not send on Shift+Enter.
 */
export async function pressShiftEnter(input: HTMLTextAreaElement) {
  try {
    await sendKeys({ down: 'Shift' });
    await sendKeys({ press: 'Enter' });
    await sendKeys({ up: 'Shift' });
    return;
  } catch { /* classic WebDriver */ }
  const keydown = new KeyboardEvent('keydown', { key: 'Enter', shiftKey: true, bubbles: true, composed: true, cancelable: true });
  if (input.dispatchEvent(keydown)) {
    input.setRangeText('\n', input.selectionStart, input.selectionEnd, 'end');
    input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertLineBreak' }));
  }
}
