/**
 * Whether the visitor is typing somewhere else on the page than in `self`: the page's focus is in a
 * field (an input, a text area, a select, editable content) that is not the widget's own, or in a
 * frame (a payment provider's card field: what has the focus in a frame of another origin cannot be
 * seen). Followed into the open shadow roots of the page's components (a design system's text field;
 * another chat on the page), not into the widget's own (`self`, which is no field). What appears
 * without the visitor asking (the teaser, a panel a site's script opens) then neither shows nor
 * takes the focus.
 */
export const typingElsewhere = (self: Element) => {
  let focused = document.activeElement;
  while (focused != self && focused?.shadowRoot?.activeElement) focused = focused.shadowRoot.activeElement;
  return !!focused?.matches('input,textarea,select,iframe,[contenteditable]');
};
