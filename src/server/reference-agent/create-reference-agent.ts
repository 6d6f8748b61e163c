import { Hono, type Context } from 'hono';
import { cors } from 'hono/cors';
import type { AgentResponseItem, EventRequest, EventResult } from '../../protocol/types.js';
import type { FetchHandler } from '../proxy/create-proxy.js';
import { eventRequestSchema, validate } from '../validation/event-request.js';
import { checkFlow, nodeFor, renderNode, spokenText, type Flow } from './flow.js';
import { SessionStore, type Session } from './sessions.js';

export interface ReferenceAgentOptions {
  flow: Flow;
  /** handle → API token of each deployment this agent serves. */
  deployments: Record<string, string>;
  /** A session idle longer than this ends (default 30 minutes). */
  inactivityTimeoutMs?: number;
  now?: () => number;
  /**
   * Serve `GET /api/debug/sessions/:senderId` (no authentication: anyone who can reach the agent
   * reads any session's tags and variables) so tests can inspect a session. Off unless asked.
   */
  debugRoutes?: boolean;
}

const error = (c: Context, status: 400 | 401 | 403 | 404, message: string) => c.json({ status: 'error', error: message }, status);

/**
 * A small, honest implementation of the agent service's events API (CONTRACT §1) for development,
 * demos and tests: auth, validation, sessions, tags, languages, metadata and stripped markdown.
 */
export function createReferenceAgent(options: ReferenceAgentOptions): FetchHandler & { sessions: SessionStore } {
  const flow = checkFlow(options.flow);
  const sessions = new SessionStore({ inactivityTimeoutMs: options.inactivityTimeoutMs ?? 30 * 60_000, now: options.now });
  const handleOfToken = new Map(Object.entries(options.deployments).map(([handle, token]) => [token, handle]));
  const now = options.now ?? Date.now;
  const app = new Hono();

  app.use('*', cors({ origin: '*', allowMethods: ['GET', 'POST', 'OPTIONS'], allowHeaders: ['Content-Type', 'Authorization'] }));

  app.get('/api/events', (c) => c.json({ status: 'ok' }));

  app.post('/api/events', async (c) => {
    const authorization = c.req.header('Authorization') ?? '';
    const bearer = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (!bearer) return error(c, 401, 'Unauthorized');
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return error(c, 400, 'Validator errors: body is not valid JSON');
    }
    const checked = validate(eventRequestSchema, body);
    if (!checked.ok) return error(c, 400, `Validator errors: ${checked.error}`);
    const tokenHandle = handleOfToken.get(bearer[1]);
    if (tokenHandle === undefined) return error(c, 401, 'Invalid token');
    if (tokenHandle !== checked.value.handle) return error(c, 403, 'Unknown principal');
    return c.json({ status: 'ok', result: respond(checked.value as EventRequest) });
  });

  if (options.debugRoutes === true) {
    app.get('/api/debug/sessions/:senderId', (c) => {
      const session = sessions.get(c.req.param('senderId'));
      if (!session) return error(c, 404, 'No session for this sender');
      return c.json({ status: 'ok', session: describe(session) });
    });
  }

  app.notFound((c) => error(c, 404, 'Not found'));
  app.onError((cause, c) => {
    console.error('reference agent:', cause);
    return c.json({ status: 'error', error: 'Internal server error' }, 500);
  });

  function respond(request: EventRequest): EventResult {
    const { message } = request;
    const senderId = request.sender?.id ?? `api_subscriber_${crypto.randomUUID()}`;
    const greeting = message.payload?.type === 'node' && message.payload.data === flow.greeting;
    const { session } = sessions.resolve(senderId, { greeting });
    for (const tag of request.tagOperations?.add ?? []) session.tags.add(tag);
    for (const tag of request.tagOperations?.remove ?? []) session.tags.delete(tag);
    session.variables.name ??= request.sender?.name ?? '?';

    const language = (request.language ?? flow.defaultLanguage).split(/[-_]/)[0].toUpperCase();
    const at = now();
    if (message.text !== undefined) {
      session.history.push({ from: 'user', text: message.text, at });
      if (session.awaiting) session.variables[session.awaiting.variable] = message.text.trim().slice(0, 80);
    }
    const nodeId = nodeFor(flow, message, language, session.awaiting);
    session.awaiting = undefined;
    const node = flow.nodes[nodeId];
    if (node.capture && node.next) session.awaiting = { variable: node.capture, next: node.next };

    const variables = {
      ...session.variables,
      messageCount: String(session.history.filter((h) => h.from === 'user').length),
      tags: [...session.tags].join(', '),
    };
    const responses: AgentResponseItem[] = renderNode(flow, nodeId, language, variables, () => crypto.randomUUID());
    for (const item of responses) session.history.push({ from: 'agent', text: item.altText ?? '', at });

    const result: EventResult = { responses };
    if (request.options?.includeMetadata) {
      result.responsesIds = responses.map((r) => r.id!);
      result.nodesIds = responses.map(() => nodeId);
    }
    if (request.options?.includeStrippedMarkdownTextResponses) result.responsesStrippedMarkdownText = responses.map(spokenText);
    return result;
  }

  const handler = async (request: Request, env?: unknown) => app.fetch(request, env);
  return Object.assign(handler, { sessions });
}

function describe(session: Session) {
  return {
    id: session.id,
    startedAt: session.startedAt,
    lastActivityAt: session.lastActivityAt,
    variables: session.variables,
    tags: [...session.tags],
    messages: session.history.length,
    awaiting: session.awaiting?.variable,
  };
}
