// `npm run size -- --modules`: where a file's bytes go, module by module, for the files a first open
// loads (the markdown chunk too). Each module's figure is what the file weighs less, gzipped (zlib
// level 9), without that module's minified code: its cost in context, gzip window and all (the
// figures do not add up to the file's: what compresses well next to another module is shared).
// Read through the source maps the build writes beside each file (not published), with Node's own
// map reader.
import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { gzipSync } from 'node:zlib';

const distDir = new URL('../../dist/', import.meta.url);
const gzip = (text) => gzipSync(text, { level: 9 }).length;

/** A source path as a reader knows it: `src/…`, or the package for a library's file (`marked`, `lit-html`). */
export function moduleName(source) {
  const library = /node_modules\/(?:\.cache\/agent-chat-(marked)|(@[^/]+\/[^/]+|[^/]+))\//.exec(source);
  return library ? library[1] ?? library[2] : source.replace(/^(\.\.\/)+/, '');
}

/** `file` (relative to dist/) split into its modules: [module, bytes gzipped it costs], the costliest first. */
export function moduleCosts(file) {
  const code = readFileSync(new URL(file, distDir), 'utf8');
  const map = new SourceMap(JSON.parse(readFileSync(new URL(`${file}.map`, distDir), 'utf8')));
  /** Runs of the code that come from one module: [module, text]. */
  const runs = [];
  code.split('\n').forEach((line, at) => {
    for (let column = 0; column < line.length; column++) {
      const module = moduleName(map.findEntry(at, column).originalSource ?? '(the bundler\'s)');
      if (runs.at(-1)?.[0] === module) runs.at(-1)[1] += line[column];
      else runs.push([module, line[column]]);
    }
    runs.push(['(the bundler\'s)', '\n']);
  });
  const whole = gzip(code);
  const modules = new Set(runs.map(([module]) => module));
  return [...modules]
    .map((module) => [module, whole - gzip(runs.filter(([other]) => other !== module).map(([, text]) => text).join(''))])
    .sort((a, b) => b[1] - a[1]);
}
