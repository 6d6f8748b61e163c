/** The local reference agent: an implementation of the events API for development and tests. */
import demoFlow from './flows/demo.json' with { type: 'json' };
import type { Flow } from './flow.js';

export { createReferenceAgent, type ReferenceAgentOptions } from './create-reference-agent.js';
export { checkFlow, type Flow, type FlowIntent, type FlowNode } from './flow.js';
export { stripMarkdown } from './strip-markdown.js';

/** The bundled demo flow: every response type, in EN, EL and DE. */
export const DEMO_FLOW = demoFlow as Flow;
