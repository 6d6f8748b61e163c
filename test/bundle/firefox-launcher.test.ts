// The test runner's Firefox pages (test/support/browsers.mjs): puppeteer-core sends the screen's
// orientation with each viewport, which Firefox ESR 140 does not know; before, every Firefox test
// failed there. Only that one error is let through.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withoutOrientationOverride } from '../support/browsers.mjs';

/** A page whose `setViewport` records its calls and fails with `error`, if given. */
function fakePage(error?: Error) {
  const calls: unknown[] = [];
  return {
    calls,
    async setViewport(viewport: unknown) {
      calls.push(viewport);
      if (error) throw error;
      return 'set';
    },
  };
}

describe('the Firefox launcher’s pages', () => {
  it('set the viewport as before when the browser knows every command', async () => {
    const page = withoutOrientationOverride(fakePage());
    assert.equal(await page.setViewport({ width: 800, height: 600 }), 'set', 'the result is passed on');
    assert.deepEqual(page.calls, [{ width: 800, height: 600 }], 'the viewport is passed on');
  });

  it('go on when Firefox does not know the screen-orientation command', async () => {
    const unknown = new Error('Protocol error (emulation.setScreenOrientationOverride): unknown command emulation.setScreenOrientationOverride');
    const page = withoutOrientationOverride(fakePage(unknown));
    assert.equal(await page.setViewport({ width: 800, height: 600 }), undefined, 'no error reaches the runner');
    assert.equal(page.calls.length, 1, 'the viewport was asked for');
  });

  it('still fail on any other error', async () => {
    for (const message of ['Protocol error (browsingContext.setViewport): unknown command browsingContext.setViewport', 'Target closed', '']) {
      const page = withoutOrientationOverride(fakePage(new Error(message)));
      await assert.rejects(page.setViewport({ width: 800, height: 600 }), { message }, `"${message}" is not swallowed`);
    }
  });
});
