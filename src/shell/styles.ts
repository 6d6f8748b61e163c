// A tag named `css` so the build's template minifier (vite.config.ts) minifies it like Lit's; the
// shell has no Lit, so the text goes into a constructable stylesheet as is.
const css = (strings: TemplateStringsArray) => strings[0];

/**
 * The shell's sheet: the public `--agent-chat-*` properties read once on :host into private `--_*`
 * ones (the view's sheet uses only the private names, so a host page's unrelated custom properties
 * never leak in and every default lives in one place), the launcher, and the panel's box, which the
 * skeleton shown while the rest loads shares with the real panel.
 */
export const shellCss = css`
  :host {
    --_accent: var(--agent-chat-accent-color, #1d4ed8);
    --_on-accent: var(--agent-chat-on-accent-color, #ffffff);
    --_surface: var(--agent-chat-surface-color, #ffffff);
    --_text: var(--agent-chat-text-color, #1f2328);
    --_muted: var(--agent-chat-muted-color, #57606a);
    --_agent-bubble: var(--agent-chat-agent-bubble-color, #eef1f5);
    --_user-bubble: var(--agent-chat-user-bubble-color, var(--_accent));
    --_on-user-bubble: var(--agent-chat-on-user-bubble-color, var(--_on-accent));
    --_error: var(--agent-chat-error-color, #b42318);
    --_border: var(--agent-chat-border-color, #d0d7de);
    --_font: var(--agent-chat-font-family, system-ui, sans-serif);
    --_font-size: var(--agent-chat-font-size, 15px);
    --_radius: var(--agent-chat-radius, 12px);
    --_shadow: var(--agent-chat-shadow, 0 12px 40px rgb(0 0 0 / 0.18));
    --_panel-width: var(--agent-chat-panel-width, 380px);
    --_panel-height: var(--agent-chat-panel-height, 560px);
    --_launcher-size: var(--agent-chat-launcher-size, 56px);
    --_offset: var(--agent-chat-offset, 20px);
    --_z: var(--agent-chat-z-index, 999999);
    font-family: var(--_font);
    font-size: var(--_font-size);
    line-height: 1.4;
    color: var(--_text);
  }
  /* Dark defaults: with the visitor's preference unless theme="light", and always with theme="dark".
     Written twice because a media query cannot share a rule with a plain selector (measured: the
     copy costs ~30 bytes gzipped). */
  @media (prefers-color-scheme: dark) {
    :host(:not([theme='light'])) {
      --_accent: var(--agent-chat-accent-color, #8ab4f8);
      --_on-accent: var(--agent-chat-on-accent-color, #0b1220);
      --_surface: var(--agent-chat-surface-color, #1e1f22);
      --_text: var(--agent-chat-text-color, #e6e6e6);
      --_muted: var(--agent-chat-muted-color, #a8acb3);
      --_agent-bubble: var(--agent-chat-agent-bubble-color, #2c2e33);
      --_error: var(--agent-chat-error-color, #ff9b8f);
      --_border: var(--agent-chat-border-color, #45484f);
    }
  }
  :host([theme='dark']) {
      --_accent: var(--agent-chat-accent-color, #8ab4f8);
      --_on-accent: var(--agent-chat-on-accent-color, #0b1220);
      --_surface: var(--agent-chat-surface-color, #1e1f22);
      --_text: var(--agent-chat-text-color, #e6e6e6);
      --_muted: var(--agent-chat-muted-color, #a8acb3);
      --_agent-bubble: var(--agent-chat-agent-bubble-color, #2c2e33);
      --_error: var(--agent-chat-error-color, #ff9b8f);
      --_border: var(--agent-chat-border-color, #45484f);
  }
  :host([hidden]) { display: none; }
  *, *::before, *::after { box-sizing: border-box; }
  button, textarea { font: inherit; color: inherit; }
  svg { fill: none; stroke: currentColor; stroke-width: 2; stroke-linecap: round; stroke-linejoin: round; }
  :focus-visible { outline: 2px solid var(--_accent); outline-offset: 2px; }

  .launcher {
    display: grid; place-items: center; border: none; border-radius: 50%; cursor: pointer;
    position: fixed; inset-block-end: var(--_offset); inset-inline-end: var(--_offset); z-index: var(--_z);
    min-inline-size: 24px; min-block-size: 24px; inline-size: var(--_launcher-size); block-size: var(--_launcher-size);
    background: var(--_accent); color: var(--_on-accent); box-shadow: var(--_shadow);
  }
  .badge {
    position: absolute; inset-block-start: -4px; inset-inline-end: -4px; min-inline-size: 22px; padding: 0 6px;
    border-radius: 999px; background: var(--_error); color: var(--_surface); font-size: 13px; font-weight: 700; line-height: 22px;
  }
  .visually-hidden { position: absolute; inline-size: 1px; block-size: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  .panel {
    display: flex; flex-direction: column; overflow: hidden;
    background: var(--_surface); color: var(--_text); border-radius: var(--_radius);
  }
  :host(:not([mode='inline'])) .panel {
    position: fixed; z-index: var(--_z);
    inset-block-end: calc(var(--_offset) * 2 + var(--_launcher-size)); inset-inline-end: var(--_offset);
    inline-size: min(var(--_panel-width), calc(100vw - 2 * var(--_offset)));
    block-size: min(var(--_panel-height), calc(100vh - 3 * var(--_offset) - var(--_launcher-size)));
    box-shadow: var(--_shadow); border: 1px solid var(--_border);
  }
  :host([position='left']) .launcher, :host([position='left']) .panel { inset-inline-end: auto; inset-inline-start: var(--_offset); }
  :host([mode='inline']) { display: block; block-size: 100%; }
  :host([mode='inline']) .panel { block-size: 100%; min-block-size: 320px; border: 1px solid var(--_border); }
  .panel[hidden] { display: none; }
  .loading { margin: auto; padding: 16px; color: var(--_muted); }
  /* A phone, or a short window (a laptop at 200 % zoom, a phone in landscape): the panel covers it. */
  @media (max-width: 480px), (max-height: 560px) {
    :host([open]:not([mode='inline'])) .panel {
      inset: 0; inline-size: 100vw; block-size: var(--_viewport-height, 100dvh); border-radius: 0; border: none;
      padding: env(safe-area-inset-top) env(safe-area-inset-right) env(safe-area-inset-bottom) env(safe-area-inset-left);
    }
    :host([open]) .launcher { display: none; }
  }
  @media (forced-colors: active) { .launcher { border: 1px solid CanvasText; } }
`;
