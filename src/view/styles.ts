// A tag named `css` so the build's template minifier minifies it (see src/shell/styles.ts).
const css = (strings: TemplateStringsArray) => strings[0];

/**
 * The panel's sheet, added to the shell's (src/shell/styles.ts) when the view loads. It uses only the
 * private `--_*` properties the shell's sheet sets from the public ones.
 */
export const viewCss = css`
  /* The colours only the panel uses, derived as the shell's (src/shell/styles.ts); fixed where relative colours are missing.
     And the text styles a host page sets around the chat (a centred section, spaced capitals, words
     broken anywhere), which would be inherited through the shadow root: the widget's own (the
     shell's font shorthand resets weight, style and variant). */
  :host {
    text-align: start; text-transform: none; text-indent: 0; letter-spacing: normal; word-spacing: normal; text-shadow: none; white-space: normal;
    word-break: normal; line-break: auto; hyphens: manual;
    --_muted: var(--agent-chat-muted-color, #57606a);
    --_error: var(--agent-chat-error-color, #b42318);
    --_agent-bubble: var(--agent-chat-agent-bubble-color, #eef1f5);
    --_user-bubble: var(--agent-chat-user-bubble-color, var(--_accent));
    --_on-user-bubble: var(--agent-chat-on-user-bubble-color, var(--_on-accent));
  }
  @supports (color: light-dark(red, red)) {
    :host {
      --_muted: var(--agent-chat-muted-color, oklch(from var(--_surface) calc(0.48 + 0.28 * var(--_d)) 0.015 255));
      --_error: var(--agent-chat-error-color, oklch(from var(--_surface) calc(0.5 + 0.29 * var(--_d)) calc(0.18 - 0.06 * var(--_d)) 28));
      --_agent-bubble: var(--agent-chat-agent-bubble-color, color-mix(in oklab, var(--_surface), var(--_text) 7%));
      --_on-user-bubble: var(--agent-chat-on-user-bubble-color, oklch(from var(--_user-bubble) var(--_fg)));
    }
  }
  /* Tables too: a page in quirks mode (no doctype) gives them a font and colour of their own (the
     default size and black, however dark the bubble). */
  button, textarea, table { font: inherit; color: inherit; }
  .panel[hidden] { display: none; }
  .send, .icon-button { display: grid; place-items: center; border: none; border-radius: 50%; cursor: pointer; }
  .header {
    display: flex; align-items: center; gap: 4px; padding: 8px 8px 8px 12px;
    background: var(--_accent); color: var(--_on-accent);
  }
  /* Title and subtitle each take their own text's direction (dir=auto): an English line on a
     right-to-left page starts on its own side. Too long for the header (a phone, larger text, a
     visitor's wider letter and word spacing), they wrap, a long word too: nothing of them is cut
     off (an ellipsis hid the rest from sight at 320 px). Their column is as wide as they are, at the
     header's start beside the picture (the auto margin holds the buttons at the end; overflow:
     hidden lets it shrink below its text). */
  .heading { overflow: hidden; margin-inline-end: auto; }
  .title, .subtitle { margin: 0; overflow-wrap: anywhere; }
  .title { font-size: 1.05em; font-weight: 600; }
  .subtitle { font-size: 0.8em; }
  /* Sized in its own em (0.8 of the text), so that its initials fit at any text size the visitor chose. */
  .avatar {
    flex: none; display: grid; place-items: center; inline-size: 2.5em; block-size: 2.5em; margin-inline-end: 6px; border-radius: 50%;
    overflow: hidden; font-size: 0.8em; font-weight: 600; background: #8884;
  }
  .avatar img { inline-size: 100%; block-size: 100%; object-fit: cover; }
  .icon-button { inline-size: 36px; block-size: 36px; background: transparent; color: inherit; }
  .icon-button:focus-visible { outline-color: currentColor; outline-offset: -3px; }
  /* Hover and pressed states: a tint that shows on any accent, light or dark. */
  .icon-button:not(:disabled):hover { background: #8883; }
  .icon-button:active, .retry:active { background: #8886; }
  .send:not(:disabled):hover, .jump:hover { filter: brightness(1.12); }
  /* Inside the launcher, which the view draws in: replies that arrived while the panel was closed. */
  .badge {
    position: absolute; inset-block-start: -4px; inset-inline-end: -4px; min-inline-size: 22px; padding: 0 6px;
    border-radius: 999px; background: var(--_error); color: var(--_surface); font-size: 13px; font-weight: 700; line-height: 22px;
  }
  .launcher:hover { box-shadow: var(--_shadow), 0 0 0 4px #8885; }
  /* Pressed: darker at once (with motion allowed, also a little smaller). */
  .launcher:active, .send:not(:disabled):active, .choice:not(:disabled):active { filter: brightness(0.88); }
  @media (prefers-reduced-motion: no-preference) {
    .launcher, .send, .choice { transition: scale 0.12s, box-shadow 0.12s; }
    .launcher:active, .send:not(:disabled):active, .choice:not(:disabled):active { scale: 0.94; }
    /* Fade and slide in from where the launcher is; closing plays it backwards (display waits for it). */
    .panel.animated { transition: opacity 0.16s ease-out, translate 0.16s ease-out, display 0.16s allow-discrete; }
    .panel.animated[hidden] { opacity: 0; translate: 0 12px; }
    @starting-style { .panel.animated, .nudge { opacity: 0; translate: 0 12px; } }
    .nudge { transition: opacity 0.16s ease-out, translate 0.16s ease-out; }
    /* The typing indicator's dots blink one after another (still, with reduced motion). */
    .typing i { animation: blink 1.2s infinite; }
  }

  /* No scroll anchoring: the widget keeps the view in place itself, as earlier messages come back (MessageLogController#keepInView) and to a visitor reading further up (AutoscrollController#read). */
  .earlier { align-self: center; color: var(--_accent); }
  /* The ring drawn inside the log, so the panel's rounded, clipped edge never cuts it. */
  .log:focus-visible { outline-offset: -2px; }
  /* The shell's container of the panel (and the nudge's) lays nothing out: an inline panel is the
     host's grid item, as high as the box the site gives the chat, its log scrolling (as a grid item
     of its own, the container grew with the conversation, and the panel with it, over the page
     under it). */
  :host > div { display: contents; }
  /* A word too long for its line breaks (bubbles, choices, card titles): never wider than the log.
     Positioned: what a reply positions (a code block's visually hidden "Copied") stays in the log
     and scrolls with it, not laid out past the panel (which could then be scrolled) or the page.
     Selectable on a page that turns selection off (an order number in a reply is there to copy).
     How it scrolls is the widget's, important so that a site's ::part(log) rule does not win: a
     smooth scroll left each of the widget's own scrolls somewhere else at each scroll event (taken
     for the visitor's: the newest went out of sight), and the browser's anchoring moved the view a
     second time after the widget had kept it in place. */
  .log { position: relative; -webkit-user-select: text; user-select: text; flex: 1; overflow-y: auto; overscroll-behavior: contain; overflow-anchor: none !important; scroll-behavior: auto !important; padding: 12px; display: flex; flex-direction: column; gap: 8px; overflow-wrap: anywhere; }
  /* The list (.messages) keeps block layout, not flex: appending to a block only lays out the new
     entry, while a flex container re-runs over every item (measured: ~7 ms per message at 1,000).
     The room under an entry is its own (padding, not margin), so that what is at the view's top is
     always an entry's, which the view keeps in place for a visitor reading further up (see
     AutoscrollController#read); so too the margins of what is in it (a day separator's, or those a
     site gives messages through ::part(message)): a root of its own flow, its first child's margin
     does not collapse through its top into the room between entries. */
  .entry { display: flow-root; padding-block-end: 8px; }
  .message { display: flex; flex-direction: column; gap: 4px; max-inline-size: 100%; }
  .message.user { align-items: flex-end; }
  .message.agent { align-items: flex-start; }
  .bubble {
    max-inline-size: 85%; padding: 8px 12px; border-radius: var(--_radius); white-space: pre-wrap;
  }
  .bubble.user { background: var(--_user-bubble); color: var(--_on-user-bubble); border-end-end-radius: 4px; }
  .bubble.agent { background: var(--_agent-bubble); color: var(--_text); border-end-start-radius: 4px; }
  .bubble.markdown { white-space: normal; }
  .bubble.markdown > :first-child { margin-block-start: 0; }
  .bubble.markdown > :last-child { margin-block-end: 0; }
  .bubble a, .card-title a { color: inherit; }
  .bubble img { max-inline-size: 100%; }
  /* Replies a language model writes: tables and code scroll inside the bubble (see the shades
     below), never squeezed; a cell wraps between words only. The tint reads on light and dark
     bubbles alike. A table takes the width its cells want, up to 48em (where long texts wrap), in a
     box that scrolls (markdown.ts). */
  .code { display: grid; margin-block: 1em; }
  .code pre { margin: 0; }
  /* A block: each line of code as high in a page in quirks mode as in any (there, a line that holds
     only an element had no room for the block's own line height: each line 2 px shorter). */
  .code code { display: block; }
  .copy {
    justify-self: end; min-block-size: 24px; margin-block-end: 2px; padding: 0 8px; font-size: 0.8em; cursor: pointer;
    border: 1px solid var(--_border); border-radius: 6px; background: var(--_surface);
  }
  .bubble pre { padding: 8px 10px; border-radius: 6px; white-space: pre; }
  .bubble code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.9em; }
  .bubble :not(pre) > code { padding: 1px 4px; border-radius: 4px; background: #8882; }
  .bubble table { border-collapse: collapse; inline-size: max-content; max-inline-size: 48em; }
  /* More to read sideways shows as a shade at that edge (overlay scrollbars, as on phones and Macs,
     show nothing until scrolled): the shades stay at the box's edges, covers that scroll with the
     content hide them at its ends. The code's tint is mixed in, so the covers match it. Where a
     scrollbar stays (Windows, Linux), a thin one, grey as the shades, on no track: Firefox drew a
     12 px white band under the bubble's grey, its thumb hardly seen. */
  .bubble pre, .table {
    overflow-x: auto; max-inline-size: 100%; scrollbar-width: thin; scrollbar-color: #888b #0000;
    --_c: var(--_agent-bubble);
    background: linear-gradient(90deg, var(--_c) 70%, #0000) 0 / 24px local, linear-gradient(270deg, var(--_c) 70%, #0000) 100% / 24px local,
      radial-gradient(farthest-side at 0, #888b, #0000) 0 / 16px scroll, radial-gradient(farthest-side at 100%, #888b, #0000) 100% / 16px scroll var(--_c);
    background-repeat: no-repeat;
  }
  .bubble pre { --_c: color-mix(in srgb, var(--_agent-bubble), #808080 14%); }
  .bubble th, .bubble td { padding: 4px 8px; border: 1px solid var(--_border); overflow-wrap: normal; }
  .bubble th { background: #8882; }
  .bubble th:not([align]) { text-align: start; }
  /* A heading marks a part of a reply: a step above the text, none below it (h1 at 2em was larger
     than the panel's title, h6 at 0.67em smaller than the text), nearer to what it heads. */
  .bubble :is(h1, h2, h3, h4, h5, h6) { margin-block: 0.9em 0; font-size: 1.1em; }
  .bubble :is(h1, h2, h3, h4, h5, h6) + * { margin-block-start: 0.3em; }
  .bubble h1 { font-size: 1.2em; }
  .bubble blockquote { margin-inline: 0; padding-inline-start: 10px; border-inline-start: 3px solid var(--_border); color: var(--_muted); }
  .bubble.notice { font-style: italic; color: var(--_muted); }
  .status { font-size: 0.8em; color: var(--_muted); text-align: end; }
  /* Problems are read at the base size, in the error colour (contrast measured in both themes). */
  .status.problem { font-size: 1em; color: var(--_error); }

  .buttons { display: flex; flex-wrap: wrap; gap: 6px; }
  /* A pill on one line; on several, a rounded box (a pill's ends, half its height, cut into the text). */
  .choice {
    min-block-size: 32px; padding: 6px 12px; border-radius: 1em; border: 1px solid var(--_accent);
    background: var(--_surface); color: var(--_accent); cursor: pointer; text-decoration: none; display: inline-flex; align-items: center;
  }
  .choice:not(:disabled):hover, .choice.chosen { background: var(--_accent); color: var(--_on-accent); }
  .choice:disabled { cursor: default; }
  /* Answered: inert, and muted (inactive controls need no contrast, WCAG 1.4.3); the chosen one filled, with a check. */
  .choice.answered { opacity: 0.5; }
  .choice svg { margin-inline: -2px 4px; }
  /* Beside the closed launcher: a reply's first line, or the site's teaser. */
  .nudge {
    position: fixed; z-index: var(--_z); display: flex; align-items: flex-start;
    inset-block-end: calc(var(--_offset) + var(--_launcher-size) + 12px); inset-inline-end: var(--_offset);
    max-inline-size: min(19em, calc(100% - 2 * var(--_offset)));
    background: var(--_surface); color: var(--_text); border: 1px solid var(--_border); border-radius: var(--_radius); box-shadow: var(--_shadow);
  }
  /* Two lines at most, clipped by the text's own box: clipped by the button's, a third line showed
     in its padding. */
  .nudge-text { flex: 1; padding: 10px 4px 10px 14px; border: none; background: none; text-align: start; cursor: pointer; }
  .nudge-text span { display: -webkit-box; -webkit-box-orient: vertical; -webkit-line-clamp: 2; overflow: hidden; }
  .nudge .icon-button { flex: none; margin: 4px; inline-size: 32px; block-size: 32px; }
  .feedback { display: flex; align-items: center; gap: 2px; color: var(--_muted); font-size: 0.8em; }
  .feedback .icon-button { inline-size: 28px; block-size: 28px; }
  .feedback [aria-pressed='true'] { color: var(--_accent); }
  /* Thumbs down: the thumbs-up icon upside down. */
  .feedback [part$=down] svg { scale: 1 -1; }
  .day { display: flex; align-items: center; gap: 8px; margin-block: 4px 12px; font-size: 0.8em; color: var(--_muted); }
  .day::before, .day::after { content: ''; flex: 1; border-block-start: 1px solid var(--_border); }
  .time { padding-inline: 4px; font-size: 0.75em; color: var(--_muted); }

  /* As wide as the log (not as its few short cards: they would end mid-panel), each card 3/4 of
     it, the next one showing at the log's edge; in a wide panel (full screen) no wider than in the
     usual one, so that a card's picture and title show together when the panel is short too. */
  .carousel {
    display: flex; gap: 8px; overflow-x: auto; scroll-snap-type: x mandatory; list-style: none;
    margin: 0; padding: 2px 2px 6px; align-self: stretch;
  }
  .card {
    flex: 0 0 min(75%, 280px); scroll-snap-align: start; display: flex; flex-direction: column; gap: 6px; text-align: start;
    border: 1px solid var(--_border); border-radius: var(--_radius); padding-block-end: 10px; overflow: hidden; background: var(--_surface);
  }
  .card > :not(img) { padding-inline: 10px; }
  .card > :first-child:not(img) { padding-block-start: 10px; }
  .card img { inline-size: 100%; aspect-ratio: 16 / 9; object-fit: cover; background: var(--_agent-bubble); }
  .card-title { font-weight: 600; }
  .card-subtitle { color: var(--_muted); font-size: 0.9em; }

  .typing { display: flex; gap: 4px; align-items: center; padding: 8px 12px; background: var(--_agent-bubble);
    border-radius: var(--_radius); inline-size: fit-content; }
  .typing span { margin-inline-start: 4px; font-size: 0.9em; color: var(--_text); }
  .jump {
    position: sticky; inset-block-end: 0; align-self: center; padding: 6px 14px; min-block-size: 32px; cursor: pointer;
    border: none; border-radius: 999px; background: var(--_accent); color: var(--_on-accent); box-shadow: var(--_shadow);
  }
  /* The three dots: empty elements, which assistive technology skips (the words after them say it). */
  .typing i { inline-size: 6px; block-size: 6px; border-radius: 50%; background: var(--_muted); }
  .typing i + i { animation-delay: 0.2s; }
  .typing i + i + i { animation-delay: 0.4s; }
  @keyframes blink { 0%, 80%, 100% { opacity: 0.3; } 40% { opacity: 1; } }

  .error { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 8px; padding: 8px 12px; border-radius: var(--_radius);
    border: 1px solid var(--_error); color: var(--_error); background: var(--_surface); }
  .error p { flex: 1 1 auto; margin: 0; }
  .notice { padding: 6px 12px; font-size: 0.9em; color: var(--_text); background: var(--_agent-bubble); }
  .retry { border: 1px solid currentColor; border-radius: 999px; background: transparent; padding: 2px 10px; margin-inline-start: 6px; cursor: pointer; min-block-size: 28px; }

  /* No margin: a page in quirks mode gives a form one under it. */
  .composer { display: flex; flex-wrap: wrap; align-items: flex-end; gap: 8px; margin: 0; padding: 10px; border-block-start: 1px solid var(--_border); }
  .input::placeholder { color: var(--_muted); }
  /* Text under 16 px: iOS Safari zooms the page into the field as it is tapped. */
  .input {
    font-size: max(16px, 1em); flex: 1; resize: none; max-block-size: 8em; min-block-size: 40px; field-sizing: content; padding: 9px 12px;
    border: 1px solid var(--_border); border-radius: calc(var(--_radius) * 0.8); background: var(--_surface);
  }
  .send { inline-size: 40px; block-size: 40px; background: var(--_accent); color: var(--_on-accent); }
  .send:disabled { opacity: 0.5; cursor: default; }
  /* The send arrow points the way the text runs. */
  .send:dir(rtl) svg { scale: -1 1; }
  .mic { inline-size: 40px; block-size: 40px; color: var(--_accent); }
  .counter { flex-basis: 100%; font-size: 0.8em; color: var(--_muted); text-align: end; }
  [aria-invalid] ~ .counter { color: var(--_error); }

  @media (forced-colors: active) {
    .send, .bubble, .choice, .card { border: 1px solid CanvasText; }
  }
  /* The panel covers the page (the shell's sheet): its header's close button is the way back. */
  @media (max-width: 30em), (max-height: 35em) {
    :host([open]) .launcher { display: none; }
  }
`;
