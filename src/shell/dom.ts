/** Elements for the shell's few nodes, built without markup strings (Trusted Types never apply). */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string>, ...children: (Node | string)[]) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.append(...children);
  return element;
}

/** The launcher's speech bubble (a path of a 24×24 icon); also drawn by `launcherSnippet()`. */
export const CHAT_ICON = 'M4 5h16v11H9l-5 4z';

/** A stroked 24×24 icon, as the view's icons (stroke style is set in the sheet). */
export function icon(path: string, size: number) {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  for (const [name, value] of Object.entries({ viewBox: '0 0 24 24', width: `${size}`, height: `${size}`, 'aria-hidden': 'true' })) {
    svg.setAttribute(name, value);
  }
  const shape = document.createElementNS(svg.namespaceURI, 'path');
  shape.setAttribute('d', path);
  svg.append(shape);
  return svg;
}
