/**
 * An element for the shell's few nodes, built without markup strings (Trusted Types never apply):
 * `tag` names an HTML element, or is an element made elsewhere (an SVG one) to set up the same way.
 */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string>, ...children: (Node | string)[]): HTMLElementTagNameMap[K];
export function h<E extends Element>(tag: E, attributes: Record<string, string>, ...children: (Node | string)[]): E;
export function h(tag: string | Element, attributes: Record<string, string>, ...children: (Node | string)[]) {
  const element = typeof tag == 'string' ? document.createElement(tag) : tag;
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

/** The launcher's speech bubble (a path of a 24×24 icon); also drawn by `launcherSnippet()`. */
export const CHAT_ICON = 'M4 5h16v11H9l-5 4z';

const svg = (tag: string) => document.createElementNS('http://www.w3.org/2000/svg', tag);

/** A stroked 24×24 icon, as the view's icons (stroke style is set in the sheet). */
export const icon = (path: string, size: number) =>
  h(svg('svg'), { viewBox: '0 0 24 24', width: `${size}`, height: `${size}`, 'aria-hidden': 'true' }, h(svg('path'), { d: path }));
