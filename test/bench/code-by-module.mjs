// The compiled code of a page's functions in a V8 heap snapshot, by the module each function comes
// from: what the bench prints for "what grew" (the heap's growth from 50 to 2,000 messages is
// compiled code, as V8 compiles the functions that have become hot; this says whose). A function's
// code is what its closure's `code` edge holds (machine code: the Code object, its instructions,
// relocation and deoptimisation data) and what its SharedFunctionInfo's `trusted_function_data`
// holds (bytecode, or baseline code), each counted once; builtins (shared by every function, there
// at any length) are not. Where the function is comes from the snapshot's `locations` (script,
// line and column of each closure), read through the source maps the build writes beside dist/'s
// files (not published), with Node's own map reader.
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { moduleName } from '../support/size-modules.mjs';

const distDir = new URL('../../dist/', import.meta.url);

/** The objects that make up a function's code, under its Code object (not the functions it inlined). */
const CODE_PARTS = /^system \/ (InstructionStream|TrustedByteArray|ProtectedFixedArray|CodeWrapper|BytecodeWrapper)$/;

/**
 * Where a script's line and column come from: the module (`src/…`, or a library: `marked`,
 * `lit-html`, `dompurify`) through the map of the dist/ file the URL names; a file without a map,
 * its path; a script without a URL (the bench's own, evaluated through the DevTools Protocol), `(no file)`.
 */
export function distSourceOf() {
  const maps = new Map();
  return (url, line, column) => {
    if (!url) return '(no file)';
    const path = new URL(url).pathname.slice(1);
    if (!maps.has(path)) {
      const file = new URL(`${path}.map`, distDir);
      maps.set(path, existsSync(file) ? new SourceMap(JSON.parse(readFileSync(file, 'utf8'))) : undefined);
    }
    const source = maps.get(path)?.findEntry(line, column).originalSource;
    return source ? moduleName(source) : path;
  };
}

/**
 * `snapshot` (a parsed .heapsnapshot) → Map of module → bytes of compiled code (self sizes) of the
 * functions found there. `sourceOf(url, line, column)` names the module (default: {@link distSourceOf}).
 */
export function codeByModule(snapshot, sourceOf = distSourceOf()) {
  const { meta } = snapshot.snapshot;
  const nodeFields = meta.node_fields.length;
  const edgeFields = meta.edge_fields.length;
  const [typeAt, nameAt, sizeAt, edgeCountAt] = ['type', 'name', 'self_size', 'edge_count'].map((f) => meta.node_fields.indexOf(f));
  const [edgeTypeAt, edgeNameAt, toAt] = ['type', 'name_or_index', 'to_node'].map((f) => meta.edge_fields.indexOf(f));
  const nodeTypes = meta.node_types[0];
  const edgeTypes = meta.edge_types[0];
  const count = snapshot.nodes.length / nodeFields;
  const firstEdge = new Uint32Array(count + 1);
  for (let i = 0, edge = 0; i < count; i++) {
    firstEdge[i] = edge;
    edge += snapshot.nodes[i * nodeFields + edgeCountAt] * edgeFields;
  }
  firstEdge[count] = snapshot.edges.length;
  const type = (node) => nodeTypes[snapshot.nodes[node * nodeFields + typeAt]];
  const name = (node) => snapshot.strings[snapshot.nodes[node * nodeFields + nameAt]];
  /** The node `node`'s edge named `edgeName` leads to, if any (a named edge: not an element's index). */
  const along = (node, edgeName) => {
    for (let edge = firstEdge[node]; edge < firstEdge[node + 1]; edge += edgeFields) {
      const kind = edgeTypes[snapshot.edges[edge + edgeTypeAt]];
      if (kind !== 'element' && kind !== 'hidden' && snapshot.strings[snapshot.edges[edge + edgeNameAt]] === edgeName) return snapshot.edges[edge + toAt] / nodeFields;
    }
    return undefined;
  };
  const children = function* (node) {
    for (let edge = firstEdge[node]; edge < firstEdge[node + 1]; edge += edgeFields) {
      if (edgeTypes[snapshot.edges[edge + edgeTypeAt]] !== 'weak') yield snapshot.edges[edge + toAt] / nodeFields;
    }
  };
  const counted = new Set();
  const bytes = new Map();
  const add = (module, node) => {
    if (node === undefined || counted.has(node) || type(node) !== 'code' || name(node).includes('(builtin)')) return;
    counted.add(node);
    bytes.set(module, (bytes.get(module) ?? 0) + snapshot.nodes[node * nodeFields + sizeAt]);
    for (const part of children(node)) if (CODE_PARTS.test(name(part))) add(module, part);
  };
  const fields = meta.location_fields;
  const [objectAt, scriptAt, lineAt, columnAt] = ['object_index', 'script_object_index', 'line', 'column'].map((f) => fields.indexOf(f));
  const locations = snapshot.locations ?? [];
  for (let i = 0; i < locations.length; i += fields.length) {
    const closure = locations[i + objectAt] / nodeFields;
    if (type(closure) !== 'closure') continue;
    const script = along(locations[i + scriptAt] / nodeFields, 'name');
    const url = script === undefined ? '' : name(script);
    const module = sourceOf(/^https?:/.test(url) ? url : '', locations[i + lineAt], locations[i + columnAt]);
    add(module, along(closure, 'code'));
    const shared = along(closure, 'shared');
    if (shared !== undefined) add(module, along(shared, 'trusted_function_data') ?? along(shared, 'function_data'));
  }
  return bytes;
}
