/**
 * Whether the visitor is typing somewhere else on the page: the page's focus is in a field (an
 * input, a text area, a select, editable content) of the page, not the widget's (its shadow root's
 * fields are not the page's). What appears without the visitor asking (the teaser, a panel a site's
 * script opens) then neither shows nor takes the focus.
 */
export const typingElsewhere = () => !!document.querySelector(':focus:is(input,textarea,select,[contenteditable])');
