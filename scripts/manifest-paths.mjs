// After `cem analyze`: custom-elements.json names the source files it read (src/…), which are not in
// the package. Tools that follow those paths (IDE plugins, Storybook, docs sites) need the file a
// consumer has: one module, dist/agent-chat.js, which declares the class and defines the element.
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../dist/custom-elements.json', import.meta.url);
const manifest = JSON.parse(readFileSync(file, 'utf8'));
const SHIPPED = 'dist/agent-chat.js';

const declarations = manifest.modules.flatMap((m) => m.declarations ?? []);
const exports = new Map();
for (const entry of manifest.modules.flatMap((m) => m.exports ?? [])) {
  exports.set(`${entry.kind}:${entry.name}`, { ...entry, declaration: { ...entry.declaration, module: SHIPPED } });
}
manifest.modules = [{ kind: 'javascript-module', path: SHIPPED, declarations, exports: [...exports.values()] }];
// References to other classes (the shell's superclass, members inherited from it) point there too.
const text = JSON.stringify(manifest, (key, value) => (key === 'module' && /^\/?src\//.test(value) ? SHIPPED : value), 2);
if (/"(\/)?src\//.test(text)) throw new Error('custom-elements.json still names a source path');
writeFileSync(file, `${text}\n`);
