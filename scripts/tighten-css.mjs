// The build's template minifier hands each css`` literal to lightningcss, which leaves a declaration
// that holds a var() as written: such a value is parsed only once the variables are substituted,
// so its whitespace stays (`color-mix(in oklab, var(--_surface), var(--_text) 22%)`, `calc(.2 +
// .76 * var(--_d))`, the fallbacks of every `--agent-chat-*` property). In a declaration's value,
// CSS never needs whitespace after a comma or around `*` and `/`: those spaces go (−21 bytes
// gzipped in all). Around `+` and `-` a calc() needs them, and they stay; so do quoted strings, and
// selectors and at-rules' preludes, where a space before `*` is the descendant combinator
// (`.launcher *` is not `.launcher*`).

/** `css` (minified CSS) without the spaces after commas and around `*` and `/` in its declarations' values. */
export function tightenCss(css) {
  let out = '';
  let part = ''; // a selector or prelude (up to `{`), or a declaration (up to `;` or `}`)
  for (let i = 0; i < css.length; i++) {
    const c = css[i];
    if (c === '"' || c === "'") {
      const end = css.indexOf(c, i + 1);
      if (end < 0) throw new Error(`scripts/tighten-css.mjs: a string that does not end, at ${i}`);
      part += css.slice(i, end + 1);
      i = end;
      continue;
    }
    part += c;
    if (c === '{' || c === ';' || c === '}') {
      out += c === '{' ? part : tightenDeclaration(part);
      part = '';
    }
  }
  return out + tightenDeclaration(part);
}

/** A declaration (`name:value;`) with its value tightened; anything else as it is. */
function tightenDeclaration(text) {
  const name = /^\s*-*[a-zA-Z_][\w-]*:/.exec(text);
  if (!name) return text;
  // A quoted string as it is; a space after `,` `*` `/`, or before `*` `/`, dropped.
  const value = text.slice(name[0].length).replace(/("[^"]*"|'[^']*')|([,*/]) | (?=[*/])/g, (match, string, mark) => string ?? mark ?? '');
  return name[0] + value;
}

/** `code` (a module's source) with the text of each css`` literal tightened; it has no `${}` in it. */
export function withTightCss(code) {
  // (A tag assigned, `= css\`…\``: the comments name the tag too.)
  return code.replace(/(=\s*css)`([^`]*)`/g, (literal, tag, text) => {
    if (text.includes('${')) throw new Error('scripts/tighten-css.mjs: a css`` literal with ${} in it: tighten its parts instead');
    return `${tag}\`${tightenCss(text)}\``;
  });
}
