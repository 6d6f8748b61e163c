import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { listen, type RunningServer } from '../../src/server/node/serve.js';
import { checkFlow, createReferenceAgent, DEMO_FLOW, stripMarkdown, type Flow } from '../../src/server/reference-agent/index.js';
import { altTextOf, renderNode, spokenText } from '../../src/server/reference-agent/flow.js';
import { SessionStore } from '../../src/server/reference-agent/sessions.js';
import type { AgentResponseItem, EventResult } from '../../src/protocol/types.js';
import { openapi } from './support/openapi.js';

const TOKEN = 'fake-reference-token';
const HANDLE = 'demo';
let clock = Date.parse('2026-01-01T00:00:00Z');
let agent: RunningServer;

before(async () => {
  agent = await listen(createReferenceAgent({
    flow: DEMO_FLOW, deployments: { [HANDLE]: TOKEN, other: 'other-token' }, inactivityTimeoutMs: 30 * 60_000, now: () => clock,
    debugRoutes: true,
  }));
});
after(() => agent.close());

describe('reference agent: debug route', () => {
  it('is off unless asked for: sessions are not readable by default', async () => {
    const plain = await listen(createReferenceAgent({ flow: DEMO_FLOW, deployments: { [HANDLE]: TOKEN } }));
    try {
      const opened = await fetch(`${plain.url}/api/events`, {
        method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TOKEN}` },
        body: JSON.stringify({ handle: HANDLE, sender: { id: 'someone' }, message: { payload: { type: 'node', data: 'greeting' } } }),
      });
      assert.equal(opened.status, 200);
      const probe = await fetch(`${plain.url}/api/debug/sessions/someone`);
      assert.equal(probe.status, 404);
      assert.doesNotMatch(await probe.text(), /someone|tags|variables/);
    } finally {
      await plain.close();
    }
  });
});

async function send(body: Record<string, unknown>, headers: Record<string, string> = { Authorization: `Bearer ${TOKEN}` }) {
  const response = await fetch(`${agent.url}/api/events`, {
    method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify({ handle: HANDLE, ...body }),
  });
  return { status: response.status, headers: response.headers, json: await response.json() };
}

/** Sends and returns the result, after checking it against the OpenAPI EventResponse. */
async function reply(body: Record<string, unknown>): Promise<EventResult> {
  const { status, json } = await send(body);
  assert.equal(status, 200, JSON.stringify(json));
  assert.deepEqual(openapi.eventResponse(json), [], 'response matches the OpenAPI EventResponse');
  return json.result;
}

const textOf = (responses: AgentResponseItem[]) => responses.map((r) => r.altText).join(' | ');
const greeting = { payload: { type: 'node', data: 'greeting' } };
const session = async (senderId: string) => (await (await fetch(`${agent.url}/api/debug/sessions/${senderId}`)).json()).session;

describe('reference agent: API', () => {
  it('answers the health check and allows any origin', async () => {
    const response = await fetch(`${agent.url}/api/events`, { headers: { Origin: 'https://x.example' } });
    assert.deepEqual(await response.json(), { status: 'ok' });
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
  });

  const auth: [string, Record<string, string>, Record<string, unknown>, number, string][] = [
    ['no Authorization header', {}, {}, 401, 'Unauthorized'],
    ['a malformed header', { Authorization: 'Token abc' }, {}, 401, 'Unauthorized'],
    ['an unknown token', { Authorization: 'Bearer nope' }, {}, 401, 'Invalid token'],
    ["another deployment's token", { Authorization: 'Bearer other-token' }, {}, 403, 'Unknown principal'],
    ['no handle', { Authorization: `Bearer ${TOKEN}` }, { handle: undefined }, 400, 'Validator errors: "handle" is required'],
    ['neither text nor payload', { Authorization: `Bearer ${TOKEN}` }, { message: {} }, 400, 'Validator errors: "message" must have exactly one of "text" or "payload"'],
  ];
  for (const [what, headers, body, status, error] of auth) {
    it(`answers ${status} "${error}" for ${what}`, async () => {
      const response = await send({ message: { text: 'hi' }, ...body }, headers);
      assert.equal(response.status, status);
      assert.deepEqual(response.json, { status: 'error', error });
      assert.deepEqual(openapi.errorResponse(response.json), []);
    });
  }

  it('greets with text and buttons; every item has an id and altText', async () => {
    const { responses } = await reply({ message: greeting, sender: { id: 'api-1' } });
    assert.deepEqual(responses.map((r) => r.type), ['text', 'buttons']);
    assert.match(responses[0].id!, /^TX_[0-9a-f-]{36}$/);
    assert.match(responses[1].id!, /^BT_/);
    for (const item of responses) assert.ok(item.altText, `altText on ${item.type}`);
    assert.equal(responses[0].altText, "Hi! I'm the demo agent. I answer from a local flow file, so everything here works offline.");
  });

  it('returns metadata and stripped markdown when asked, one entry per response', async () => {
    const result = await reply({ message: { text: 'pricing' }, sender: { id: 'api-2' }, options: { includeMetadata: true, includeStrippedMarkdownTextResponses: true } });
    assert.equal(result.responsesIds!.length, result.responses.length);
    assert.deepEqual(result.responsesIds, result.responses.map((r) => r.id));
    assert.deepEqual(result.nodesIds, ['pricing', 'pricing']);
    assert.ok(!result.responsesStrippedMarkdownText!.join(' ').includes('**'), 'no markdown left');
    assert.match(result.responsesStrippedMarkdownText![0], /Plan S: €9 a month/);
    const plain = await reply({ message: { text: 'pricing' }, sender: { id: 'api-2' } });
    assert.equal(plain.responsesIds, undefined);
    assert.equal(plain.responsesStrippedMarkdownText, undefined);
  });

  it('renders a carousel and one item of a type the widget does not know, with altText', async () => {
    const plans = await reply({ message: { payload: { type: 'node', data: 'plans' } }, sender: { id: 'api-3' } });
    const carousel = plans.responses.find((r) => r.type === 'carousel')!;
    assert.equal((carousel.cards as unknown[]).length, 3);
    assert.match(carousel.id!, /^CA_/);
    const video = await reply({ message: { payload: { type: 'node', data: 'video' } }, sender: { id: 'api-3' } });
    assert.equal(video.responses[0].type, 'video');
    assert.match(video.responses[0].altText!, /intro video/);
  });

  it('answers with the long replies agents send: a table with a quote, and code, in each language', async () => {
    // What the demo shows of the widget's reading column (README, issue 11): asked in words.
    const cases: [string, string, string][] = [
      ['EN', 'can you compare the plans?', 'how do I embed it'],
      ['EL', 'σύγκριση πακέτων', 'πώς γίνεται η ενσωμάτωση;'],
      ['DE', 'Vergleich der Tarife bitte', 'wie kann ich das einbinden?'],
    ];
    for (const [language, compare, embed] of cases) {
      const table = await reply({ message: { text: compare }, sender: { id: `api-long-${language}` }, language, options: { includeStrippedMarkdownTextResponses: true } });
      const text = table.responses[0].options as string[];
      assert.match(text[0], /\n\| --- \| ---: \| ---: \| --- \| --- \| ---: \|\n/, `${language}: a table of six columns, those of figures aligned right`);
      assert.match(text[0], /\n> /, `${language}: a quote`);
      assert.match(text[0], /^### \S/, `${language}: a heading`);
      assert.doesNotMatch(table.responsesStrippedMarkdownText![0], /\||---|>|#/, `${language}: read aloud without markdown`);
      const code = await reply({ message: { text: embed }, sender: { id: `api-long-${language}` }, language });
      assert.match((code.responses[0].options as string[])[0], /```html\n<script type="module"[^\n]+\n<agent-chat [^\n]+\n```/, `${language}: a fenced code block`);
    }
  });

  it('answers in the requested language, matching keywords without accents', async () => {
    const el = await reply({ message: { text: 'ποιες ειναι οι τιμες;' }, sender: { id: 'api-4' }, language: 'EL' });
    assert.match(textOf(el.responses), /Οι τιμές μας/);
    const de = await reply({ message: { text: 'Was kostet das? Preise bitte' }, sender: { id: 'api-4' }, language: 'de-AT' });
    assert.match(textOf(de.responses), /Unsere Preise/);
    const unknownLanguage = await reply({ message: greeting, sender: { id: 'api-4' }, language: 'FR' });
    assert.match(textOf(unknownLanguage.responses), /I'm the demo agent/);
  });

  it('intent and unknown-node postbacks go where they should', async () => {
    assert.match(textOf((await reply({ message: { payload: { type: 'intent', data: 'pricing' } }, sender: { id: 'api-5' } })).responses), /pricing is simple/);
    assert.match(textOf((await reply({ message: { payload: { type: 'node', data: 'no-such-node' } }, sender: { id: 'api-5' } })).responses), /did not get that/);
    assert.match(textOf((await reply({ message: { text: 'qwerty' }, sender: { id: 'api-5' } })).responses), /did not get that/);
  });
});

describe('reference agent: sessions', () => {
  it('carries variables and history across messages of one session', async () => {
    const id = 'session-carry';
    await reply({ message: greeting, sender: { id } });
    assert.match(textOf((await reply({ message: { text: 'my name' }, sender: { id } })).responses), /What's your name/);
    assert.match(textOf((await reply({ message: { text: 'Ada' }, sender: { id } })).responses), /Nice to meet you, Ada/);
    assert.match(textOf((await reply({ message: { text: 'who am i' }, sender: { id } })).responses), /You are Ada, and you have sent 3 messages/);
  });

  it('a greeting postback always opens a new session', async () => {
    const id = 'session-greeting';
    await reply({ message: greeting, sender: { id } });
    await reply({ message: { text: 'name' }, sender: { id } });
    await reply({ message: { text: 'Grace' }, sender: { id } });
    const first = (await session(id)).id;
    await reply({ message: greeting, sender: { id } });
    assert.notEqual((await session(id)).id, first);
    assert.match(textOf((await reply({ message: { text: 'who am i' }, sender: { id } })).responses), /You are \?, and you have sent 1 messages/);
  });

  it('a message after the inactivity timeout opens a new session; before it, the session goes on', async () => {
    const id = 'session-timeout';
    await reply({ message: greeting, sender: { id } });
    const first = (await session(id)).id;
    clock += 29 * 60_000;
    await reply({ message: { text: 'hello' }, sender: { id } });
    assert.equal((await session(id)).id, first, 'within the timeout');
    clock += 31 * 60_000;
    await reply({ message: { text: 'hello' }, sender: { id } });
    assert.notEqual((await session(id)).id, first, 'after the timeout');
  });

  it('a new sender gets a new session; no sender means a fresh api_subscriber each time', async () => {
    await reply({ message: { text: 'name' } });
    // had the anonymous sender been remembered, "Linus" would be captured as a name
    assert.match(textOf((await reply({ message: { text: 'Linus' } })).responses), /did not get that/);
    assert.equal((await fetch(`${agent.url}/api/debug/sessions/never-seen`)).status, 404);
  });

  it('adds and removes tags on the current session', async () => {
    const id = 'session-tags';
    await reply({ message: greeting, sender: { id }, tagOperations: { add: ['vip', 'beta'] } });
    assert.deepEqual((await session(id)).tags, ['vip', 'beta']);
    await reply({ message: { text: 'hi' }, sender: { id }, tagOperations: { remove: ['beta'], add: ['returning'] } });
    assert.deepEqual((await session(id)).tags, ['vip', 'returning']);
  });
});

describe('reference agent: its flow is checked once, at start-up', () => {
  const flow = (change: (flow: Flow) => void): Flow => {
    const copy = structuredClone(DEMO_FLOW);
    change(copy);
    return copy;
  };
  const cases: [string, (flow: Flow) => void, RegExp][] = [
    ['a greeting and a fallback that are no node', (f) => Object.assign(f, { greeting: 'nowhere', fallback: 'gone' }), /^flow: unknown node\(s\) nowhere, gone$/],
    ["an intent's node, named once however often", (f) => f.intents.push({ name: 'x', node: 'lost', keywords: {} }, { name: 'y', node: 'lost', keywords: {} }), /^flow: unknown node\(s\) lost$/],
    ['a capture that goes on to no node', (f) => (f.nodes['ask-name'].next = 'after'), /^flow: unknown node\(s\) after$/],
    ['a node without the default language', (f) => delete f.nodes.video.responses.EN, /^flow: node "video" has no EN responses$/],
    ['a button to no node', (f) => f.nodes.no.responses.EN.push({ type: 'buttons', text: 'Go', buttons: [{ title: 'on', payload: { type: 'node', data: 'elsewhere' } }] }), /^flow: node "no" has a button to unknown node "elsewhere"$/],
  ];
  for (const [what, change, message] of cases) {
    it(`refuses ${what}, saying which`, () => {
      assert.throws(() => checkFlow(flow(change)), { message });
      assert.throws(() => createReferenceAgent({ flow: flow(change), deployments: {} }), { message }, 'the agent is not made');
    });
  }

  it('takes the demo flow as it is', () => assert.equal(checkFlow(DEMO_FLOW), DEMO_FLOW));
});

describe('reference agent: its sessions are bounded', () => {
  it('past maxSessions, the one used least recently goes (not the one opened first)', () => {
    let id = 0;
    const store = new SessionStore({ inactivityTimeoutMs: 60_000, now: () => 0, newId: () => `s${++id}`, maxSessions: 2 });
    assert.equal(store.resolve('a', { greeting: true }).isNew, true, 'a new sender: a new session');
    store.resolve('b', { greeting: true });
    assert.equal(store.resolve('a', { greeting: false }).isNew, false, 'a is used again');
    store.resolve('c', { greeting: true });
    assert.equal(store.size, 2);
    assert.deepEqual(['a', 'b', 'c'].map((sender) => store.get(sender)?.id), ['s1', undefined, 's3']);
  });
});

describe('stripMarkdown', () => {
  const table: [string, string][] = [
    ['**bold** and _em_', 'bold and em'],
    ['[link](https://x.example) text', 'link text'],
    ['- one\n- two', 'one\ntwo'],
    ['# Title\n\nBody', 'Title\nBody'],
    ['`code` <b>html</b>', 'code html'],
    ['line\nbreak', 'line\nbreak'],
    ['| a | b |\n|---|---|\n| 1 | **2** |', 'a, b\n1, 2'],
    ['> quoted\n\nafter', 'quoted\nafter'],
    ['a\n\n---\n\nb', 'a\nb'],
    ['one  \ntwo', 'one\ntwo'],
    ['  spaced \t  words  ', 'spaced words'],
    ['- a\n  - b\n- c', 'a\nb\nc'],
    ['x<br>y and <b>z</b>', 'x\ny and z'],
    ['| a<br/>b | c |\n|---|---|', 'a\nb, c'],
  ];
  for (const [markdown, expected] of table) it(`${JSON.stringify(markdown)} → ${JSON.stringify(expected)}`, () => assert.equal(stripMarkdown(markdown), expected));
});

describe('reference agent: requests and flows it answers', () => {
  /** POSTs `body` as it is to the events API of the agent at `url`. */
  const postTo = (url: string, body: string, authorization = `Bearer ${TOKEN}`) => fetch(`${url}/api/events`, {
    method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: authorization }, body,
  });
  const post = (body: string, authorization: string) => postTo(agent.url, body, authorization);
  const body = JSON.stringify({ handle: HANDLE, message: { text: 'hi' } });

  it('takes a bearer token only as the whole header, in any case and spacing', async () => {
    for (const authorization of ['Basic abc', `Bearer ${TOKEN} extra`, `xBearer ${TOKEN}`, `Bearer`]) {
      const response = await post(body, authorization);
      assert.deepEqual([response.status, await response.json()], [401, { status: 'error', error: 'Unauthorized' }], authorization);
    }
    assert.equal((await post(body, `bearer   ${TOKEN}`)).status, 200);
  });

  it('says a body that is not JSON is not', async () => {
    const response = await post('{"message": ', `Bearer ${TOKEN}`);
    assert.deepEqual([response.status, await response.json()], [400, { status: 'error', error: 'Validator errors: body is not valid JSON' }]);
  });

  it('answers its own failure with a 500 in the service\'s shape, and stays up', async (t) => {
    let broken = true;
    const logged = t.mock.method(console, 'error', () => {});
    const failing = await listen(createReferenceAgent({ flow: DEMO_FLOW, deployments: { [HANDLE]: TOKEN }, now: () => { if (broken) throw new Error('no clock'); return 0; } }));
    try {
      const request = () => postTo(failing.url, body);
      const response = await request();
      assert.deepEqual([response.status, await response.json()], [500, { status: 'error', error: 'Internal server error' }]);
      assert.equal(logged.mock.callCount(), 1, 'logged');
      broken = false;
      assert.equal((await request()).status, 200);
    } finally {
      await failing.close();
    }
  });

  it('ends a session after 30 idle minutes by default (at 30 minutes it goes on)', async () => {
    let now = 0;
    const plain = await listen(createReferenceAgent({ flow: DEMO_FLOW, deployments: { [HANDLE]: TOKEN }, now: () => now, debugRoutes: true }));
    try {
      const ask = async (text: string) => {
        await postTo(plain.url, JSON.stringify({ handle: HANDLE, sender: { id: 'idle' }, message: { text } }));
        return (await (await fetch(`${plain.url}/api/debug/sessions/idle`)).json()).session.id as string;
      };
      const first = await ask('hi');
      now += 30 * 60_000;
      assert.equal(await ask('hi'), first, 'idle 30 minutes: the same session');
      now += 30 * 60_000 + 1;
      assert.notEqual(await ask('hi'), first, 'idle longer: a new one');
    } finally {
      await plain.close();
    }
  });

  it('keeps a captured answer trimmed and at most 80 characters', async () => {
    const id = 'capture-trim';
    await reply({ message: { text: 'my name' }, sender: { id } });
    assert.match(textOf((await reply({ message: { text: '  Ada Lovelace  ' }, sender: { id } })).responses), /Nice to meet you, Ada Lovelace[^ ]/);
    await reply({ message: { text: 'my name' }, sender: { id } });
    await reply({ message: { text: 'x'.repeat(100) }, sender: { id } });
    assert.equal((await session(id)).variables.name, 'x'.repeat(80));
  });

  it('finds an intent by its name, not its node\'s; an unknown intent and a postback of another type get the fallback and the action node', async () => {
    const id = 'postbacks';
    assert.match(textOf((await reply({ message: { payload: { type: 'intent', data: 'name' } }, sender: { id } })).responses), /What's your name/);
    assert.match(textOf((await reply({ message: { payload: { type: 'intent', data: 'no-such-intent' } }, sender: { id } })).responses), /did not get that/);
    assert.equal(textOf((await reply({ message: { payload: { type: 'action', data: { actions: [] } } }, sender: { id } })).responses), 'Done.');
  });

  it('keeps the session through a button\'s postback to another node (only the greeting\'s opens a new one)', async () => {
    const id = 'button-keeps';
    await reply({ message: { text: 'my name' }, sender: { id } });
    await reply({ message: { text: 'Ada' }, sender: { id } });
    await reply({ message: { payload: { type: 'node', data: 'pricing' } }, sender: { id } });
    assert.match(textOf((await reply({ message: { text: 'who am i' }, sender: { id } })).responses), /You are Ada/);
  });

  it('finds keywords across runs of spaces and punctuation, and in another of the flow\'s languages, answering in the conversation\'s', async () => {
    assert.match(textOf((await reply({ message: { text: 'Who am  I?!' }, sender: { id: 'keywords-1' } })).responses), /You are/);
    assert.match(textOf((await reply({ message: { text: 'τιμή;' }, sender: { id: 'keywords-2' }, language: 'en' })).responses), /pricing is simple/);
  });

  it('does not wait for an answer where a node captures without saying where to go next; a keyword of the conversation\'s language comes first', async () => {
    const flow: Flow = {
      defaultLanguage: 'EN', greeting: 'start', fallback: 'start',
      intents: [{ name: 'poison', node: 'poison', keywords: { DE: ['gift'] } }, { name: 'bye', node: 'bye', keywords: { EN: ['bye', 'gift'] } }],
      nodes: {
        start: { responses: { EN: [{ type: 'text', options: ['Hello'] }] }, capture: 'name' },
        bye: { responses: { EN: [{ type: 'text', options: ['Bye'] }] } },
        poison: { responses: { EN: [{ type: 'text', options: ['Poison'] }] } },
      },
    };
    const small = await listen(createReferenceAgent({ flow, deployments: { [HANDLE]: TOKEN } }));
    try {
      const say = async (text: string) => (await (await postTo(small.url, JSON.stringify({ handle: HANDLE, sender: { id: 'nowhere-next' }, message: { text } }))).json()) as { result: EventResult };
      assert.equal(textOf((await say('hi')).result.responses), 'Hello');
      assert.equal(textOf((await say('bye')).result.responses), 'Bye');
      assert.equal(textOf((await say('a gift')).result.responses), 'Bye', "a keyword in the conversation's language first (German's Gift is poison)");
    } finally {
      await small.close();
    }
  });
});

describe('reference agent: altText and spoken text of what a flow says', () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ['its own altText', { type: 'buttons', altText: 'Given', text: 'Pick', buttons: [{ title: 'A' }] }, 'Given'],
    ['a prompt and choices', { type: 'buttons', text: ' Pick one ', buttons: [{ title: 'A' }, { title: '' }, { title: 'B' }] }, 'Pick one: A, B'],
    ['a prompt ending in a question mark', { type: 'buttons', text: 'Which?', buttons: [{ title: 'A' }] }, 'Which? A'],
    ['a prompt with a stop inside, not at its end', { type: 'buttons', text: 'Plans. Which one', buttons: [{ title: 'A' }] }, 'Plans. Which one: A'],
    ['options where there are no buttons', { type: 'buttons', text: 'Pick', options: ['x', 'y'] }, 'Pick: x, y'],
    ['choices alone', { type: 'buttons', buttons: [{ title: 'A' }] }, 'A'],
    ['a prompt alone', { type: 'buttons', text: 'Nothing to pick', buttons: [] }, 'Nothing to pick'],
    ['markdown, stripped', { type: 'text', options: ['**a**', '_b_'] }, 'a\nb'],
    ['cards, titles and subtitles', { type: 'carousel', cards: [{ title: 'S', subtitle: 'small' }, { title: 'M' }] }, 'S small; M'],
    ['a type it does not know', { type: 'video', url: 'https://x.example/v' }, ''],
  ];
  for (const [what, item, expected] of cases) it(`altText: ${what}`, () => assert.equal(altTextOf(item), expected));

  it('spoken text: a text reply stripped of markdown, anything else its altText or nothing', () => {
    assert.deepEqual([
      spokenText({ type: 'text', options: ['**a**'], altText: 'other' } as AgentResponseItem),
      spokenText({ type: 'buttons', options: ['x'], altText: 'Pick: x' } as AgentResponseItem),
      spokenText({ type: 'video' } as AgentResponseItem),
    ], ['a', 'Pick: x', '']);
  });

  it('fills variables in every string of a template, keeping numbers, booleans and nulls as they are', () => {
    const flow: Flow = {
      defaultLanguage: 'EN', greeting: 'n', fallback: 'n', intents: [],
      nodes: { n: { responses: { EN: [{ type: 'card', title: 'Hi {{ name }}{{missing}}', size: 2, wide: false, note: null, list: ['{{name}}', 3] }] } } },
    };
    assert.deepEqual(renderNode(flow, 'n', 'DE', { name: 'Ada' }, () => 'id'), [
      { id: 'XX_id', type: 'card', title: 'Hi Ada', size: 2, wide: false, note: null, list: ['Ada', 3], altText: '' },
    ]);
  });
});
