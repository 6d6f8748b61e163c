// After `cem analyze`: the analyzer names an attribute after its property as written (`proxyUrl`),
// Lit's default when a declaration names none. The element's attributes are the property names in
// kebab case (`proxy-url`: src/agent-chat.component.ts, #byAttribute), which the declarations no
// longer spell out (−50 bytes gzipped in the shell); the manifest says what the element observes.
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../dist/custom-elements.json', import.meta.url);
const manifest = JSON.parse(readFileSync(file, 'utf8'));
const kebab = (name) => name.replace(/[A-Z]/g, '-$&').toLowerCase();

for (const declaration of manifest.modules.flatMap((m) => m.declarations ?? [])) {
  for (const attribute of declaration.attributes ?? []) if (attribute.fieldName) attribute.name = kebab(attribute.fieldName);
  for (const member of declaration.members ?? []) if (member.attribute) member.attribute = kebab(member.name);
}
writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
