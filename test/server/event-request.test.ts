/**
 * The wording of the proxy's and the reference agent's 400s (`describeIssue`): each kind of limit
 * says what it limits — characters of a text, items of a list, the value of a number.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { clientEventRequestSchema, eventRequestSchema, validate } from '../../src/server/validation/event-request.js';

describe('describeIssue', () => {
  const schema = z.object({ text: z.string().min(1).max(3), list: z.array(z.string()).max(2), count: z.number().min(1).max(5), whole: z.number().int(), kind: z.enum(['card', 'list']) }).partial();
  const cases: [unknown, string][] = [
    [{ text: 'abcd' }, '"text" must be at most 3 characters'],
    [{ text: '' }, '"text" must not be empty'],
    [{ list: ['a', 'b', 'c'] }, '"list" must have at most 2 items'],
    [{ count: 6 }, '"count" must be at most 5'],
    [{ count: 0 }, '"count" must be at least 1'],
    [{ whole: 1.5 }, '"whole" must be an integer'],
    [{ count: 'six' }, '"count" must be a number'],
    [{ kind: 'table' }, '"kind" must be one of "card", "list"'],
  ];
  for (const [body, error] of cases) {
    it(`${JSON.stringify(body)}: ${error}`, () => {
      assert.deepEqual(validate(schema, body), { ok: false, error });
    });
  }
});

describe('the two schemas', () => {
  it("the agent service's takes what the proxy's does but the widget's requestId, which stays with the proxy, and with the handle", () => {
    const request = { requestId: 'r-1', message: { text: 'hi' }, sender: { id: 'v' }, language: 'EN' };
    assert.deepEqual(validate(clientEventRequestSchema, request), { ok: true, value: request });
    assert.deepEqual(validate(eventRequestSchema, { ...request, handle: 'h' }), { ok: true, value: { message: { text: 'hi' }, sender: { id: 'v' }, language: 'EN', handle: 'h' } });
    assert.deepEqual(validate(eventRequestSchema, request), { ok: false, error: '"handle" is required' });
  });
});
