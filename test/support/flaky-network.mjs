// A connection that drops, for the browser tests (web-test-runner middleware): under /flaky/<run>/,
// the built files of dist/ are served as they are, except the view (agent-chat-view.js) and the
// lazy chunks (chunks/*, engine-chunks/*), whose requests have their connection dropped (a network error, as on a
// train) while the run is "down":
// GET /flaky/<run>/down and /flaky/<run>/up switch it. A test picks a fresh <run>.
// (Not an HTTP error: the test runner marks every response with an extension cacheable for a year,
// so the browser would keep the error; and a connection dropped once the browser retries by itself.)
const down = new Set();

/** @type {import('@web/dev-server-core').Middleware} */
export async function flakyNetwork(ctx, next) {
  const match = /^\/flaky\/([\w-]+)\/((?:(?:engine-)?chunks\/)?[\w.-]+)$/.exec(ctx.path);
  if (!match) return next();
  const [, run, file] = match;
  if (file === 'down' || file === 'up') {
    if (file === 'down') down.add(run);
    else down.delete(run);
    ctx.body = file;
    return undefined;
  }
  if ((file === 'agent-chat-view.js' || file.includes('chunks/')) && down.has(run)) {
    ctx.respond = false;
    ctx.req.socket.destroy();
    return undefined;
  }
  ctx.url = `/dist/${file}`;
  return next();
}
