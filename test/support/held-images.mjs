// Pictures that come when a test says so, as from a slow image host (web-test-runner middleware):
// GET /held-image/<id>.svg is answered (a 240 × 160 picture) only once GET /held-image/<id>/release
// has been asked for; GET /held-image/<id>/asked answers `yes` once the picture has been asked for,
// `no` before. A test picks a fresh <id>, and releases it when done; one it never releases
// is answered after HOLD_AT_MOST, so that no request outlives its page for long (a browser may wait
// on it as it goes to the next test file).
const HOLD_AT_MOST = 15_000;
const gates = new Map();
/** Those released (a picture asked for after its release comes at once). */
const released = new Set();
/** Those the browser has asked for. */
const asked = new Set();

/** The gate of `id`: a promise, and what opens it. */
function gate(id) {
  let found = gates.get(id);
  if (!found) {
    let open;
    const opened = new Promise((resolve) => (open = resolve));
    gates.set(id, (found = { opened, open }));
  }
  return found;
}

/** @type {import('@web/dev-server-core').Middleware} */
export async function heldImages(ctx, next) {
  const match = /^\/held-image\/([\w-]+)(\.svg|\/release|\/asked)$/.exec(ctx.path);
  if (!match) return next();
  const [, id, what] = match;
  if (what === '/asked') {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = asked.has(id) ? 'yes' : 'no';
    return undefined;
  }
  if (what === '/release') {
    gate(id).open();
    gates.delete(id);
    released.add(id);
    ctx.body = 'released';
    return undefined;
  }
  asked.add(id);
  if (!released.has(id)) {
    let timer;
    await Promise.race([gate(id).opened, new Promise((resolve) => (timer = setTimeout(resolve, HOLD_AT_MOST)))]);
    clearTimeout(timer);
  }
  ctx.type = 'image/svg+xml';
  ctx.set('Cache-Control', 'no-store');
  ctx.body = '<svg xmlns="http://www.w3.org/2000/svg" width="240" height="160"><rect width="240" height="160" fill="#88aabb"/></svg>';
  return undefined;
}
