// A connection that drops, for the browser tests (web-test-runner middleware): under /flaky/<run>/,
// the built files of dist/ are served as they are, except the view (agent-chat-view.js) and the
// lazy chunks (chunks/*, engine-chunks/*), whose requests have their connection dropped (a network error, as on a
// train) while the run is "down":
// GET /flaky/<run>/down and /flaky/<run>/up switch it (`down?only=<part of a file's name>`: only
// those files). A test picks a fresh <run>.
// (Not an HTTP error: the test runner marks every response with an extension cacheable for a year,
// so the browser would keep the error; and a connection dropped once the browser retries by itself.)
// A slow connection too: after GET /flaky/<run>/hold, those requests are answered only once
// GET /flaky/<run>/release comes (the panel's code ~2 s after a click on "Slow 3G"); with
// `?only=<part of a file's name>`, only those files are held; GET /flaky/<run>/held says how many wait.
/** Runs that are down, each with the part of a name the files it drops have ('' for all). */
const down = new Map();
/** Runs on hold: each with the answers waiting for its release. */
const held = new Map();
/** The part of a name the files a run holds have (`hold?only=`; all lazy files where none was given). */
const only = new Map();

/** @type {import('@web/dev-server-core').Middleware} */
export async function flakyNetwork(ctx, next) {
  const match = /^\/flaky\/([\w-]+)\/((?:(?:engine-)?chunks\/)?[\w.-]+)$/.exec(ctx.path);
  if (!match) return next();
  const [, run, file] = match;
  if (file === 'down' || file === 'up') {
    if (file === 'down') down.set(run, ctx.query.only ?? '');
    else down.delete(run);
    ctx.body = file;
    return undefined;
  }
  if (file === 'held') {
    ctx.body = String(held.get(run)?.length ?? 0);
    return undefined;
  }
  if (file === 'hold') held.set(run, []), only.set(run, ctx.query.only);
  if (file === 'release') held.get(run)?.forEach((answer) => answer());
  if (file === 'hold' || file === 'release') {
    if (file === 'release') held.delete(run);
    ctx.body = file;
    return undefined;
  }
  const lazy = file === 'agent-chat-view.js' || file.includes('chunks/');
  if (lazy && down.has(run) && file.includes(down.get(run))) {
    ctx.respond = false;
    ctx.req.socket.destroy();
    return undefined;
  }
  if (lazy && held.has(run) && file.includes(only.get(run) ?? '')) await new Promise((answer) => held.get(run).push(answer));
  ctx.url = `/dist/${file}`;
  return next();
}
