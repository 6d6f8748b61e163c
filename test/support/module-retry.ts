/**
 * Whether this browser fetches a module again after its fetch failed, so that a lazy chunk that
 * could not load (offline) loads at the next need (the HTML standard's change, whatwg/html#10327).
 * Browsers differ by release: Chromium 156 does and Chromium 150 does not (both Debian 12's
 * `chromium` at one time or another); Firefox ESR and WebKitGTK as installed here keep the failure
 * until a reload. Probed once per page on a dropped connection (test/support/flaky-network.mjs),
 * with the standalone engine's German table, a module without side effects.
 */
let probed: Promise<boolean> | undefined;

export const retriesFailedModules = () =>
  (probed ??= (async () => {
    const network = `/flaky/${crypto.randomUUID()}`;
    const chunk = /engine-chunks\/de-[\w-]+\.js/.exec(await (await fetch(`${network}/agent-chat-engine.js`)).text())![0];
    const url = `${network}/${chunk}`;
    await fetch(`${network}/down`);
    await import(/* @vite-ignore */ url).then(() => {
      throw new Error(`${url} loaded on a dropped connection: the probe cannot tell`);
    }, () => undefined);
    await fetch(`${network}/up`);
    return import(/* @vite-ignore */ url).then(() => true, () => false);
  })());
