// Server rendering at build time: SsrApp's HTML into dist/ssr.html, which the browser hydrates.
import { readFileSync, writeFileSync } from 'node:fs';
import { render } from './dist-server/entry-server.js';

const file = new URL('./dist/ssr.html', import.meta.url);
writeFileSync(file, readFileSync(file, 'utf8').replace('<!--ssr-->', render()));
