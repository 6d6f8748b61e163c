// `npm run build` ends here: dist/launcher.html, the launcher drawn before any script (a declarative
// shadow root to paste as the first child of <agent-chat>), and the CSP source that allows its style.
// Servers render it with `launcherSnippet()` of `agent-chat/launcher` instead (e.g. in the page's language).
import { writeFileSync } from 'node:fs';
import { launcherSnippet, launcherStyleHash } from '../dist/server/launcher.js';

writeFileSync(new URL('../dist/launcher.html', import.meta.url), `${launcherSnippet()}\n`);
console.log(`dist/launcher.html: the launcher before any script; with a strict CSP add to style-src: ${await launcherStyleHash()}`);
