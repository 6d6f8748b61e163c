// Import boundaries from STYLE.md, checked over the source: browser code never imports server
// code, `node:` modules appear only in the Node adapter, and no module uses Lit's unsafeHTML
// (sanitised markdown is rendered as DOM nodes from renderers/sanitize.ts).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const src = fileURLToPath(new URL('../../src/', import.meta.url));
const files = (readdirSync(src, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => f.replaceAll('\\', '/'));
const importsOf = (file: string) =>
  [...readFileSync(`${src}${file}`, 'utf8').matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]/g)].map((m) => m[1]);

describe('module boundaries', () => {
  it('finds the source files', () => assert.ok(files.length > 30, `${files.length} files`));

  it('browser code never imports src/server', () => {
    for (const file of files.filter((f) => !f.startsWith('server/'))) {
      for (const specifier of importsOf(file)) assert.doesNotMatch(specifier, /(^|\/)server\//, `${file} imports ${specifier}`);
    }
  });

  it('only src/server/node imports node: modules', () => {
    for (const file of files.filter((f) => !f.startsWith('server/node/'))) {
      for (const specifier of importsOf(file)) assert.doesNotMatch(specifier, /^node:/, `${file} imports ${specifier}`);
    }
  });

  it('nothing imports unsafeHTML, and only renderers/sanitize.ts imports DOMPurify or marked', () => {
    for (const file of files) {
      const text = readFileSync(`${src}${file}`, 'utf8');
      assert.doesNotMatch(text, /unsafeHTML|innerHTML\s*=/, file);
      if (file !== 'renderers/sanitize.ts' && !file.startsWith('server/')) {
        for (const specifier of importsOf(file)) assert.doesNotMatch(specifier, /^(dompurify|marked)$/, `${file} imports ${specifier}`);
      }
    }
  });
});
