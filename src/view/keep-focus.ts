/**
 * The keyboard's focus stays in the widget when the control it is on goes away; it goes on to
 * `goOn` (the input; the launcher while closed) where it was left on the page:
 * - with its use (a choice answered, a message discarded, a thumb pressed, Send, a retry sent, the
 *   preview dismissed), from the keyboard: the click has no count and the control has the focus (a
 *   tap is left alone: it would open a phone's keyboard). Looked at once drawn; the control may
 *   hold the focus still, disabled (WebKit takes it only once drawn, Chromium in a task of its own
 *   that can come after this look: 1 Send in 12 from the keyboard left the focus on the page);
 * - by itself (a message's Discard or Retry now as the message goes again, the greeting's Retry now
 *   as it goes through, the Undo of a new conversation after its seconds): a control focused from
 *   the keyboard (`:focus-visible`) taken out while it had the focus, nothing focused since.
 */
export function keepFocus(root: ShadowRoot, goOn: () => void) {
  let held: Element | undefined;
  root.addEventListener('click', ({ target, detail }: Partial<MouseEvent>) => {
    const used = target as HTMLButtonElement;
    if (!detail && used === root.activeElement) requestAnimationFrame(() => setTimeout(() => {
      const at = root.activeElement;
      if ((!at || at == used) && (!used.isConnected || used.disabled)) goOn();
    }));
  }, true); // (before the control's own handler, which may take it away)
  root.addEventListener('focusin', ({ target }) => (held = (target as Element).matches(':focus-visible') ? (target as Element) : undefined));
  // Left by the visitor (for the page, or another control): let go. Taken out, it is gone once the
  // change that took it out has run (Chromium says it loses the focus just before).
  root.addEventListener('focusout', ({ target }) => queueMicrotask(() => held == target && held.isConnected && (held = undefined)));
  new MutationObserver(() => {
    if (held && !held.isConnected && !root.activeElement && document.activeElement == document.body) {
      held = undefined;
      goOn();
    }
  }).observe(root, { childList: true, subtree: true });
}
