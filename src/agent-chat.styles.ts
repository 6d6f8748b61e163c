import { css } from 'lit';

/**
 * Public `--agent-chat-*` properties are read once on :host into private `--_*` ones; the rest of
 * the sheet uses only the private names, so a host page's unrelated custom properties never leak
 * in and every default lives in one place.
 */
export const styles = css`
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
     copy costs ~30 bytes gzipped; a shared css fragment of bare declarations is not valid CSS to minify). */
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

  .launcher, .send, .icon-button { display: grid; place-items: center; border: none; border-radius: 50%; cursor: pointer; }
  .launcher {
    position: fixed; inset-block-end: var(--_offset); inset-inline-end: var(--_offset); z-index: var(--_z);
    min-inline-size: 24px; min-block-size: 24px; inline-size: var(--_launcher-size); block-size: var(--_launcher-size);
    background: var(--_accent); color: var(--_on-accent); box-shadow: var(--_shadow);
  }
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
  @media (max-width: 480px) {
    :host([open]:not([mode='inline'])) .panel {
      inset: 0; inline-size: 100vw; block-size: var(--_viewport-height, 100dvh); border-radius: 0; border: none;
      padding: env(safe-area-inset-top) env(safe-area-inset-right) env(safe-area-inset-bottom) env(safe-area-inset-left);
    }
    :host([open]) .launcher { display: none; }
  }

  .header {
    display: flex; align-items: center; gap: 4px; padding: 8px 8px 8px 16px;
    background: var(--_accent); color: var(--_on-accent);
  }
  .title { flex: 1; margin: 0; font-size: 1.05em; font-weight: 600; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
  .icon-button { inline-size: 36px; block-size: 36px; background: transparent; color: inherit; }
  .icon-button:focus-visible { outline-color: currentColor; outline-offset: -3px; }

  .log { flex: 1; overflow-y: auto; overscroll-behavior: contain; padding: 12px; display: flex; flex-direction: column; gap: 8px; }
  /* The list (.messages) keeps block layout, not flex: appending to a block only lays out the new
     entry, while a flex container re-runs over every item (measured: ~7 ms per message at 1,000). */
  .entry { margin-block-end: 8px; }
  .message { display: flex; flex-direction: column; gap: 4px; max-inline-size: 100%; }
  .message.user { align-items: flex-end; }
  .message.agent { align-items: flex-start; }
  .bubble {
    max-inline-size: 85%; padding: 8px 12px; border-radius: var(--_radius); overflow-wrap: anywhere; white-space: pre-wrap;
  }
  .bubble.user { background: var(--_user-bubble); color: var(--_on-user-bubble); border-end-end-radius: 4px; }
  .bubble.agent { background: var(--_agent-bubble); color: var(--_text); border-end-start-radius: 4px; }
  .bubble.markdown { white-space: normal; }
  .bubble.markdown > :first-child { margin-block-start: 0; }
  .bubble.markdown > :last-child { margin-block-end: 0; }
  .bubble a, .card-title a { color: inherit; }
  .bubble img { max-inline-size: 100%; }
  .bubble pre { overflow-x: auto; }
  .bubble.notice { font-style: italic; color: var(--_muted); }
  .status { font-size: 0.8em; color: var(--_muted); text-align: end; }
  /* Problems are read at the base size, in the error colour (contrast measured in both themes). */
  .status.problem { font-size: 1em; color: var(--_error); }

  .buttons { display: flex; flex-wrap: wrap; gap: 6px; }
  .choice {
    min-block-size: 32px; padding: 6px 12px; border-radius: 999px; border: 1px solid var(--_accent);
    background: var(--_surface); color: var(--_accent); cursor: pointer; text-decoration: none; display: inline-flex; align-items: center;
  }
  .choice:hover { background: var(--_accent); color: var(--_on-accent); }

  .carousel {
    display: flex; gap: 8px; overflow-x: auto; scroll-snap-type: x mandatory; list-style: none;
    margin: 0; padding: 2px 2px 6px; max-inline-size: 100%;
  }
  .card {
    flex: 0 0 75%; scroll-snap-align: start; display: flex; flex-direction: column; gap: 6px;
    border: 1px solid var(--_border); border-radius: var(--_radius); padding-block-end: 10px; overflow: hidden; background: var(--_surface);
  }
  .card > :not(img) { padding-inline: 10px; }
  .card > :first-child:not(img) { padding-block-start: 10px; }
  .card img { inline-size: 100%; aspect-ratio: 16 / 9; object-fit: cover; background: var(--_agent-bubble); }
  .card-title { font-weight: 600; }
  .card-subtitle { color: var(--_muted); font-size: 0.9em; }

  .typing { display: flex; gap: 4px; align-items: center; padding: 8px 12px; background: var(--_agent-bubble);
    border-radius: var(--_radius); inline-size: fit-content; }
  .typing-text { margin-inline-start: 4px; font-size: 0.9em; color: var(--_text); }
  .jump {
    position: sticky; inset-block-end: 0; align-self: center; padding: 6px 14px; min-block-size: 32px; cursor: pointer;
    border: none; border-radius: 999px; background: var(--_accent); color: var(--_on-accent); box-shadow: var(--_shadow);
  }
  .badge {
    position: absolute; inset-block-start: -4px; inset-inline-end: -4px; min-inline-size: 22px; padding: 0 6px;
    border-radius: 999px; background: var(--_error); color: var(--_surface); font-size: 13px; font-weight: 700; line-height: 22px;
  }
  .typing span[aria-hidden] { inline-size: 6px; block-size: 6px; border-radius: 50%; background: var(--_muted); animation: blink 1.2s infinite; }
  .typing span:nth-child(3) { animation-delay: 0.2s; }
  .typing span:nth-child(4) { animation-delay: 0.4s; }
  @keyframes blink { 0%, 80%, 100% { opacity: 0.3; } 40% { opacity: 1; } }
  @media (prefers-reduced-motion: reduce) { .typing span[aria-hidden] { animation: none; } }
  .visually-hidden { position: absolute; inline-size: 1px; block-size: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }

  .error { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 8px; padding: 8px 12px; border-radius: var(--_radius);
    border: 1px solid var(--_error); color: var(--_error); background: var(--_surface); }
  .error p { flex: 1 1 auto; margin: 0; }
  .notice { padding: 6px 12px; font-size: 0.9em; color: var(--_text); background: var(--_agent-bubble); }
  .retry { border: 1px solid currentColor; border-radius: 999px; background: transparent; padding: 2px 10px; margin-inline-start: 6px; cursor: pointer; min-block-size: 28px; }

  .composer { display: flex; flex-wrap: wrap; align-items: flex-end; gap: 8px; padding: 10px; border-block-start: 1px solid var(--_border); }
  .input::placeholder { color: var(--_muted); }
  .input {
    flex: 1; resize: none; max-block-size: 8em; min-block-size: 40px; field-sizing: content; padding: 9px 12px;
    border: 1px solid var(--_border); border-radius: calc(var(--_radius) * 0.8); background: var(--_surface);
  }
  .send { inline-size: 40px; block-size: 40px; background: var(--_accent); color: var(--_on-accent); }
  .send:disabled { opacity: 0.5; cursor: default; }
  .mic { inline-size: 40px; block-size: 40px; color: var(--_accent); }
  .counter { flex-basis: 100%; font-size: 0.8em; color: var(--_muted); text-align: end; }

  @media (forced-colors: active) {
    .launcher, .send, .bubble, .choice, .card { border: 1px solid CanvasText; }
  }
`;
