import { html, nothing } from 'lit/html.js';
import type { Strings } from '../i18n/strings.js';
import { TEXT_LIMIT } from '../protocol/types.js';
import { icon, ICONS } from './icons.js';

export interface ComposerView {
  draft: string;
  strings: Strings;
  /** Show the microphone button (the browser has speech recognition), and whether it is listening. */
  dictation?: { listening: boolean };
  onInput: (value: string) => void;
  onSubmit: () => void;
  onDictate: () => void;
}

/** The counter appears once the draft passes this share of the limit (the agent service's, TEXT_LIMIT). */
const COUNTER_FROM = 0.8;

/**
 * A key that is the IME's (Japanese, Chinese, Korean input): Enter that confirms a composition,
 * Escape that cancels it. During the composition every engine says so; WebKit reports the key that
 * ends it with keyCode 229 (the key the IME took) instead.
 */
export const isImeKey = (event: KeyboardEvent) => event.isComposing || event.keyCode === 229;

function handleKeydown(event: KeyboardEvent, onSubmit: () => void) {
  // Enter sends; Shift+Enter is a new line; Enter that confirms an IME composition is neither.
  if (event.key !== 'Enter' || event.shiftKey || isImeKey(event)) return;
  event.preventDefault();
  onSubmit();
}

/**
 * A key typed in the field stays in the widget. A page's one-key shortcuts ("/" to search, Space to
 * play) skip its own fields by the event's target, which for the chat's field is the `<agent-chat>`
 * element: they took the visitor's "/" and spaces. Escape, Tab and Ctrl or ⌘ shortcuts go on to the
 * page (its dialogs and focus traps, its command palette), as they do from its fields.
 */
const keepKey = (event: KeyboardEvent) => {
  // (Ctrl with Alt is AltGr on Windows, which types characters.)
  if (!/^(Escape|Tab)$/.test(event.key) && !(event.metaKey || (event.ctrlKey && !event.altKey))) event.stopPropagation();
};

/** The message input, the microphone button (where there is speech recognition) and the send button. */
export const renderComposer = ({ draft, strings, dictation, onInput, onSubmit, onDictate }: ComposerView) => {
  const showCounter = draft.length >= TEXT_LIMIT * COUNTER_FROM;
  // Past the limit: kept whole (a `maxlength` cut a paste without a word), invalid, and not sent
  // until the visitor has shortened it; the counter, in the error colour, shows how far past it is.
  // It is read out with each key only then (within the limit, it is the input's description: live,
  // it was read out at every key from 1,600 characters on).
  const over = draft.length > TEXT_LIMIT;
  const submit = () => over || onSubmit();
  return html`
    <form part="composer" class="composer" @submit=${(e: Event) => { e.preventDefault(); submit(); }}>
      <textarea part="input" class="input" rows="1" name="message" dir="auto" .value=${draft} aria-invalid=${over || nothing}
        aria-label=${strings.inputLabel} placeholder=${strings.inputPlaceholder} enterkeyhint="send"
        aria-describedby=${showCounter ? 'counter' : nothing}
        @input=${(e: InputEvent) => onInput((e.target as HTMLTextAreaElement).value)}
        @keydown=${(e: KeyboardEvent) => { keepKey(e); handleKeydown(e, submit); }} @keypress=${keepKey} @keyup=${keepKey}></textarea>
      ${dictation
        ? html`<button part="mic-button" class="icon-button mic" type="button" aria-label=${strings.dictate} title=${strings.dictate}
            aria-pressed=${dictation.listening} @click=${onDictate}>${icon(dictation.listening ? ICONS.stop : ICONS.microphone)}</button>`
        : nothing}
      <button part="send-button" class="send" type="submit" aria-label=${strings.send} ?disabled=${!draft.trim() || over}>
        ${icon(ICONS.send)}
      </button>
      ${showCounter
        ? html`<div part="counter" class="counter" id="counter" aria-live=${over ? 'polite' : nothing}>${strings.characterCount(draft.length, TEXT_LIMIT)}</div>`
        : nothing}
    </form>
  `;
};
