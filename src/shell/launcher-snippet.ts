import { CHAT_ICON } from './dom.js';
import { openChatLabel } from './launcher-label.js';
import { shellCss } from './styles.js';

/** What the launcher drawn before any script says; the shell's defaults when unset. */
export interface LauncherSnippetOptions {
  /** The page's or the widget's `language` ("en", "el", "de", …): picks the label's words. */
  language?: string;
  /** The label itself, e.g. the `openChat` string a site overrides. */
  label?: string;
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The shell's sheet without comments and runs of white space (spaces inside selectors and values
 * stay), and one rule of the snippet's own: no launcher where no script can run (a visitor who turned
 * JavaScript off, a frame sandboxed without scripts), as a button there could never open anything.
 */
const style = shellCss.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\s+/g, ' ').replace(/ ?([{};,]) ?/g, '$1').replace(/: /g, ':').trim()
  + '@media (scripting:none){.launcher{display:none}}';

/**
 * The launcher as markup, for a host page that wants it drawn before any script has run: a
 * declarative shadow root to put as the first child of `<agent-chat>` (launcher mode), e.g. from a
 * server-side template: `<agent-chat proxy-url="/chat">${launcherSnippet()}</agent-chat>`. It is
 * the shell's own launcher and sheet, so nothing moves when the script arrives and draws it again
 * (the shell replaces the whole shadow root). Until then the button is `inert`: it could not open
 * anything, and focus on it would be lost when the shell draws its own; where no script can run, it is
 * not shown. Tied to this
 * version: render it with the same version as the script. Under a `style-src` without
 * `'unsafe-inline'`, allow its `<style>` with {@link launcherStyleHash}.
 */
export function launcherSnippet({ language, label }: LauncherSnippetOptions = {}): string {
  const name = escapeAttribute(label ?? openChatLabel(language));
  return `<template shadowrootmode="open"><style>${style}</style>`
    + `<button part="launcher" class="launcher" type="button" aria-controls="panel" aria-expanded="false" aria-label="${name}" inert>`
    + `<svg viewBox="0 0 24 24" width="26" height="26" aria-hidden="true"><path d="${CHAT_ICON}"/></svg></button>`
    + '<span class="visually-hidden" role="status"></span></template>';
}

/** The snippet's `<style>` as a CSP source for `style-src`: `'sha256-…'` (Web Crypto: Node, Deno, Bun, Workers, browsers). */
export async function launcherStyleHash(): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(style)));
  return `'sha256-${btoa(String.fromCharCode(...digest))}'`;
}
