// Hand-written declarations that tsc does not emit: the classic script's global, and the framework
// typings (`agent-chat/react`, `agent-chat/vue`: types only, with an empty module behind each so the
// export resolves at run time too).
import { cpSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';

const src = new URL('../src/', import.meta.url);
const dist = new URL('../dist/', import.meta.url);
cpSync(new URL('iife.d.ts', src), new URL('types/iife.d.ts', dist));
mkdirSync(new URL('types/frameworks/', dist), { recursive: true });
mkdirSync(new URL('frameworks/', dist), { recursive: true });
for (const file of readdirSync(new URL('frameworks/', src)).filter((f) => f.endsWith('.d.ts'))) {
  cpSync(new URL(`frameworks/${file}`, src), new URL(`types/frameworks/${file}`, dist));
}
for (const name of ['react', 'vue']) {
  writeFileSync(new URL(`frameworks/${name}.js`, dist), `// Types only: see agent-chat/${name} in the README.\nexport {};\n`);
}
