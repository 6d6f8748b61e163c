// lit-html as it ships, without two statements its module runs at the end for what is not the
// widget's: handing its classes to `globalThis.litHtmlPolyfillSupport` (lit's polyfill-support
// script, for browsers without native shadow DOM, where the widget cannot run: its shell needs
// constructable stylesheets), and recording its version in `globalThis.litHtmlVersions` (read by
// Lit's development build to warn of two copies on one page). The widget's own lit-html serves
// only its templates (and a site's renderers given its `html`), whatever lit a page has: −48
// bytes gzipped in the view, measured on 27 November. The widget's build (vite.config.ts) uses it;
// the browser tests run lit's development build (which the cut does not touch), the end-to-end and
// bundle tests the built files. test/bundle/lit-html-hooks.test.ts shows a release whose last
// statements differ stops the build.

/** The file whose end is cut: lit-html's production module (minified, as its package ships it). */
export const isLitHtml = (path) => /\/node_modules\/lit-html\/lit-html\.js$/.test(path);

/**
 * `P=G.litHtmlPolyfillSupport;P?.(Template,ChildPart),(G.litHtmlVersions??=[]).push("x.y.z");`, its
 * names as minified, the first the last of a `const` list (`const …,P=…;`) or a `const` of its own.
 */
const HOOKS = /(const |,)([\w$]+)=([\w$]+)\.litHtmlPolyfillSupport;\2\?\.\([\w$]+,[\w$]+\),\(\3\.litHtmlVersions\?\?=\[\]\)\.push\("[\d.]+"\);/g;

/**
 * lit-html's module without the two statements (see above). Throws unless they stand there once,
 * as written above, so a release that changes them is looked at before it ships.
 * @param {string} code
 * @returns {string}
 */
export function withoutGlobalHooks(code) {
  if ((code.match(HOOKS) ?? []).length !== 1) {
    throw new Error('lit-html.js no longer ends its module with litHtmlPolyfillSupport and litHtmlVersions as expected: check scripts/lit-html-hooks.mjs');
  }
  return code.replace(HOOKS, (_, start) => (start === ',' ? ';' : ''));
}
