import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { describe, it } from 'node:test';
import { codeByModule, distSourceOf } from '../bench/code-by-module.mjs';

type Node = { type: string; name: string; size?: number; edges?: [kind: string, name: string, to: number][] };

/** A heap snapshot as V8 writes it, of `nodes` (edges by node index) and closures' `locations` ([closure, script, line, column]). */
function snapshot(nodes: Node[], locations: [number, number, number, number][]) {
  const nodeTypes = ['hidden', 'object', 'closure', 'code', 'string'];
  const edgeTypes = ['context', 'element', 'property', 'internal', 'hidden', 'shortcut', 'weak'];
  const strings: string[] = [];
  const string = (text: string) => (strings.includes(text) ? strings.indexOf(text) : strings.push(text) - 1);
  const fields = 5;
  return {
    snapshot: {
      meta: {
        node_fields: ['type', 'name', 'id', 'self_size', 'edge_count'],
        node_types: [nodeTypes],
        edge_fields: ['type', 'name_or_index', 'to_node'],
        edge_types: [edgeTypes],
        location_fields: ['object_index', 'script_id', 'script_object_index', 'line', 'column'],
      },
    },
    nodes: nodes.flatMap((node, i) => [nodeTypes.indexOf(node.type), string(node.name), i * 2 + 1, node.size ?? 0, node.edges?.length ?? 0]),
    edges: nodes.flatMap((node) => (node.edges ?? []).flatMap(([kind, name, to]) => [edgeTypes.indexOf(kind), string(name), to * fields])),
    locations: locations.flatMap(([closure, script, line, column]) => [closure * fields, 7, script * fields, line, column]),
    strings,
  };
}

describe('the bench: compiled code by module (test/bench/code-by-module.mjs)', () => {
  it("counts a function's code once, with what makes it up, under where the function is; not builtins, not the functions it inlined", () => {
    const nodes: Node[] = [
      /* 0 */ { type: 'closure', name: 'f', edges: [['internal', 'code', 2], ['internal', 'shared', 5]] },
      /* 1 */ { type: 'closure', name: 'f', edges: [['internal', 'code', 2], ['internal', 'shared', 5]] }, // another closure of it
      /* 2 */ { type: 'code', name: 'system / Code', size: 100, edges: [['internal', 'instruction_stream', 3], ['internal', 'deoptimization_data', 4], ['internal', 'inlined', 9]] },
      /* 3 */ { type: 'code', name: 'system / InstructionStream', size: 1000 },
      /* 4 */ { type: 'code', name: 'system / ProtectedFixedArray', size: 50 },
      /* 5 */ { type: 'code', name: 'system / SharedFunctionInfo / f', size: 40, edges: [['internal', 'trusted_function_data', 6], ['internal', 'script', 7]] },
      /* 6 */ { type: 'code', name: 'system / BytecodeArray', size: 200 },
      /* 7 */ { type: 'code', name: 'system / Script / http://127.0.0.1:1', edges: [['internal', 'name', 8]] },
      /* 8 */ { type: 'string', name: 'http://127.0.0.1:1/agent-chat-view.js' },
      /* 9 */ { type: 'code', name: 'system / SharedFunctionInfo / inlined', size: 30 },
      /* 10 */ { type: 'closure', name: 'lazy', edges: [['internal', 'code', 11]] },
      /* 11 */ { type: 'code', name: 'system / Code / CompileLazy (builtin)', size: 5000 },
      /* 12 */ { type: 'closure', name: 'evaluated', edges: [['internal', 'code', 13]] },
      /* 13 */ { type: 'code', name: 'system / Code', size: 70, edges: [['weak', 'next', 3]] },
      /* 14 */ { type: 'code', name: 'system / Script', edges: [['internal', 'name', 15]] },
      /* 15 */ { type: 'string', name: '' },
    ];
    const asked: string[] = [];
    const sourceOf = (url: string, line: number, column: number) => {
      asked.push(`${url} ${line}:${column}`);
      return url ? `${new URL(url).pathname} ${line}:${column}` : '(no file)';
    };
    const code = codeByModule(snapshot(nodes, [[0, 7, 0, 10], [1, 7, 0, 10], [10, 7, 0, 50], [12, 14, 3, 0]]), sourceOf);
    assert.deepEqual([...code], [['/agent-chat-view.js 0:10', 100 + 1000 + 50 + 200], ['(no file)', 70]]);
    assert.deepEqual(asked, ['http://127.0.0.1:1/agent-chat-view.js 0:10', 'http://127.0.0.1:1/agent-chat-view.js 0:10', 'http://127.0.0.1:1/agent-chat-view.js 0:50', ' 3:0'], 'each closure located in its script');
  });

  it("names a place in dist/'s files by its module, through their source maps (npm run build first)", () => {
    const sourceOf = distSourceOf();
    const chunk = readdirSync(new URL('../../dist/chunks/', import.meta.url)).find((f) => /^markdown-[\w-]+\.js$/.test(f))!;
    const code = readFileSync(new URL(`../../dist/chunks/${chunk}`, import.meta.url), 'utf8');
    /** The line and column of the first `text` in the chunk. */
    const at = (text: string): [number, number] => {
      const before = code.slice(0, code.indexOf(text)).split('\n');
      return [before.length - 1, before.at(-1)!.length];
    };
    const url = `http://127.0.0.1:1/chunks/${chunk}`;
    assert.equal(sourceOf(url, ...at('noopener noreferrer')), 'src/renderers/sanitize.ts');
    assert.equal(sourceOf(url, ...at('createElement(`button`)')), 'src/renderers/markdown.ts');
    assert.equal(sourceOf(url, ...at('blockTokens(')), 'marked');
    assert.equal(sourceOf('http://127.0.0.1:1/naive-chat.js', 0, 0), 'naive-chat.js', 'a file without a map: its path');
    assert.equal(sourceOf('', 0, 0), '(no file)');
  });
});
