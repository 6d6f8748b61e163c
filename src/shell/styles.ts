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
    /* Written in lines whatever the page's writing mode (a page written vertically turned the chat on its side). */
    color-scheme: light dark; writing-mode: horizontal-tb;
    /* The fixed light palette, for browsers without relative colours or light-dark() (before 2024). */
    --_accent: var(--agent-chat-accent-color, #1d4ed8);
    --_on-accent: var(--agent-chat-on-accent-color, #ffffff);
    --_surface: var(--agent-chat-surface-color, #ffffff);
    --_text: var(--agent-chat-text-color, #1f2328);
    --_border: var(--agent-chat-border-color, #d0d7de);
    --_radius: var(--agent-chat-radius, 12px);
    --_shadow: var(--agent-chat-shadow, 0 12px 40px rgb(0 0 0 / 0.18));
    --_launcher-size: var(--agent-chat-launcher-size, 56px);
    --_offset: var(--agent-chat-offset, 20px);
    --_z: var(--agent-chat-z-index, 999999);
    /* The shorthand: the host page's weight, style and variant are not inherited either. \`medium\`
       is the visitor's own default size (16 px unless they chose another in the browser's
       settings), whatever size the host page sets on its root or body (WCAG technique C13). */
    font: var(--agent-chat-font-size, medium) / 1.4 var(--agent-chat-font-family, system-ui, sans-serif);
    color: var(--_text);
  }
  :host([theme='light']) { color-scheme: light; }
  :host([theme='dark']) { color-scheme: dark; }
  /*
   * Every colour a site leaves unset is derived from those it sets, so that it contrasts with what it
   * sits on (README, "Colours"): the surface is dark only in a dark scheme (the visitor's, or
   * theme="dark") and only if the accent reads on it (a dark accent, made for a light page, keeps
   * the panel light); the accent follows the surface; text and borders follow the surface;
   * the text on the accent follows the accent. (The view's sheet derives the bubbles' colours, the
   * muted text and the error colour, which only the panel uses, the same way.)
   * --_d is 1 where the colour it is applied to (l, its OKLCH lightness) is dark, else 0; --_fg is
   * the lightness, chroma and hue of text on a colour: near black, or near white on a dark colour.
   * (light-dark() stands for relative colours too: browsers have both or neither, but Firefox 120-127.)
   */
  @supports (color: light-dark(red, red)) {
    :host {
      --_d: clamp(0, (0.6 - l) * 99, 1);
      --_fg: calc(0.2 + 0.76 * var(--_d)) 0.015 260;
      --_surface: var(--agent-chat-surface-color, light-dark(#ffffff, oklch(from var(--agent-chat-accent-color, #8ab4f8) calc(0.24 + 0.76 * var(--_d)) 0.006 271)));
      --_accent: var(--agent-chat-accent-color, oklch(from var(--agent-chat-surface-color, light-dark(#ffffff, #1e1f22)) calc(0.49 + 0.28 * var(--_d)) calc(0.22 - 0.11 * var(--_d)) 262));
      --_on-accent: var(--agent-chat-on-accent-color, oklch(from var(--_accent) var(--_fg)));
      --_text: var(--agent-chat-text-color, oklch(from var(--_surface) var(--_fg)));
      --_border: var(--agent-chat-border-color, color-mix(in oklab, var(--_surface), var(--_text) 22%));
    }
  }
  :host([hidden]) { display: none; }
  *, *::before, *::after { box-sizing: border-box; }
  svg { fill: none; stroke: currentColor; stroke-width: 2; stroke-linecap: round; stroke-linejoin: round; }
  :focus-visible { outline: 2px solid var(--_accent); outline-offset: 2px; }

  .launcher {
    display: grid; place-items: center; border: none; border-radius: 50%; cursor: pointer;
    position: fixed; inset-block-end: var(--_offset); inset-inline-end: var(--_offset); z-index: var(--_z);
    min-inline-size: 24px; min-block-size: 24px; inline-size: var(--_launcher-size); block-size: var(--_launcher-size);
    background: var(--_accent); color: var(--_on-accent); box-shadow: var(--_shadow);
  }
  /* The button is the target of every press: the view redraws what is inside it once loaded, and
     a press on the old icon released on the new one would make no click. */
  .launcher * { pointer-events: none; }
  .visually-hidden { position: absolute; inline-size: 1px; block-size: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  .panel {
    display: flex; flex-direction: column; overflow: hidden;
    background: var(--_surface); color: var(--_text); border-radius: var(--_radius);
  }
  /* Its room is the window's (100 %: the fixed panel's containing block, in the page's pixels), not
     100vw and 100vh, which a site's CSS zoom on the chat multiplies as it does every length: at
     1.25 the panel was taller than the window, its header out of sight above it. */
  :host(:not([mode='inline'])) .panel {
    position: fixed; z-index: var(--_z);
    inset-block-end: calc(var(--_offset) * 2 + var(--_launcher-size)); inset-inline-end: var(--_offset);
    inline-size: min(var(--agent-chat-panel-width, 24em), calc(100% - 2 * var(--_offset)));
    block-size: min(var(--agent-chat-panel-height, 35em), calc(100% - 3 * var(--_offset) - var(--_launcher-size)));
    box-shadow: var(--_shadow); border: 1px solid var(--_border);
  }
  /* Unset, the launcher and panel sit at the end of the line (mirrored on a right-to-left page);
     position="left" or "right" is that side of the screen, as written. */
  :host([position='left']) :is(.launcher, .panel, .nudge) { inset-inline: auto; left: var(--_offset); }
  :host([position='right']) :is(.launcher, .panel, .nudge) { inset-inline: auto; right: var(--_offset); }
  /* A grid, so that the panel (in the shell's container while the rest loads; the view's sheet has
     that container lay nothing out) is as high as the box the site gives the chat. */
  :host([mode='inline']) { display: grid; block-size: 100%; }
  :host([mode='inline']) .panel { block-size: 100%; min-block-size: 320px; border: 1px solid var(--_border); }
  /* What the panel shows while the rest loads: a text area, where what the visitor types goes on to
     the input once it has loaded (in the widget's font, not the browser's for fields); or why it
     could not load. */
  .loading { margin: auto; padding: 16px; font: inherit; }
  /* A phone, or a short window (a laptop at 200 % zoom, a phone in landscape): the panel covers it.
     In ems, which a media query takes at the visitor's own text size (480 and 560 px at 16 px): a
     visitor who chose larger text in the browser gets the panel a zoom would give them. */
  @media (max-width: 30em), (max-height: 35em) {
    :host([open]:not([mode='inline'])) .panel {
      inset: 0; inline-size: 100%; block-size: var(--_viewport-height, 100dvh); border-radius: 0; border: none;
      padding: env(safe-area-inset-top) env(safe-area-inset-right) env(safe-area-inset-bottom) env(safe-area-inset-left);
    }
    /* Above the panel while the rest loads (or cannot): the way back to the page. The view hides it. */
    .launcher { z-index: calc(var(--_z) + 1); }
  }
  @media (forced-colors: active) { .launcher { border: 1px solid CanvasText; } }
  /* Fixed, the launcher and its panel would print on every sheet (the panel over the text); an inline chat prints. */
  @media print { :host(:not([mode='inline'])) { display: none; } }
`;
