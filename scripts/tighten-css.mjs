// The build's template minifier hands each css`` literal to lightningcss, which leaves a declaration
// that holds a var() as written: such a value is parsed only once the variables are substituted,
// so its whitespace stays (`color-mix(in oklab, var(--_surface), var(--_text) 22%)`, `calc(.2 +
// .76 * var(--_d))`, the fallbacks of every `--agent-chat-*` property). CSS never needs whitespace
// after a comma or around `*` and `/`: those spaces go (−15 bytes gzipped in all). Around `+` and
// `-` a calc() needs them, and they stay; quoted strings are left as they are.

/** `css` (minified CSS) without the spaces after commas and around `*` and `/`, outside quoted strings. */
export function tightenCss(css) {
  let out = '';
  for (let i = 0; i < css.length; i++) {
    const c = css[i];
    if (c === '"' || c === "'") {
      const end = css.indexOf(c, i + 1);
      if (end < 0) throw new Error(`scripts/tighten-css.mjs: a string that does not end, at ${i}`);
      out += css.slice(i, end + 1);
      i = end;
    } else if (c === ' ' && (/[,*/]/.test(css[i - 1]) || /[*/]/.test(css[i + 1]))) {
      // (a space the minifier left before a comma is not there to find)
    } else out += c;
  }
  return out;
}

/** `code` (a module's source) with the text of each css`` literal tightened; it has no `${}` in it. */
export function withTightCss(code) {
  // (A tag assigned, `= css\`…\``: the comments name the tag too.)
  return code.replace(/(=\s*css)`([^`]*)`/g, (literal, tag, text) => {
    if (text.includes('${')) throw new Error('scripts/tighten-css.mjs: a css`` literal with ${} in it: tighten its parts instead');
    return `${tag}\`${tightenCss(text)}\``;
  });
}
