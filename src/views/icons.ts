import { html } from 'lit/html.js';

/** Stroked 24×24 icons (stroke style is set in the sheet); one template serves them all. */
export const icon = (path: string, size = 20) =>
  html`<svg viewBox="0 0 24 24" width=${size} height=${size} aria-hidden="true"><path d=${path} /></svg>`;

export const ICONS = {
  chat: 'M4 5h16v11H9l-5 4z',
  close: 'M6 6l12 12M18 6 6 18',
  restart: 'M20 12a8 8 0 1 1-2.3-5.7M20 4v5h-5',
  speakerOn: 'M4 9v6h4l5 4V5L8 9zm12 0a4 4 0 0 1 0 6',
  speakerOff: 'M4 9v6h4l5 4V5L8 9zm12 0 5 6m0-6-5 6',
  send: 'M4 20 21 12 4 4l2 8zm2-8h8',
  microphone: 'M9 6a3 3 0 0 1 6 0v5a3 3 0 0 1-6 0zm-4 5a7 7 0 0 0 14 0m-7 7v3',
  stop: 'M7 7h10v10H7z',
  check: 'M5 12.5 10 17l9-10',
  download: 'M12 4v11m-5-5 5 5 5-5M5 20h14',
  /** Thumbs down: this one turned upside down (the view's styles). */
  thumbUp: 'M7 11v9H4v-9zm0 0 4-7a2 2 0 0 1 3 2l-1 4h5a2 2 0 0 1 2 2.3l-1.2 6A2 2 0 0 1 16.8 20H7',
} as const;
