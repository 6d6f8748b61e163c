/**
 * Validators for the agent service's own OpenAPI document, so tests check requests that reach the
 * upstream and responses that come from the reference agent against the published contract, not
 * against our own types. The document is published in ../shared/spec/ beside the repository; a
 * copy lives here so a clone on its own (CI) tests against it too, and it must not drift.
 */
import { Ajv } from 'ajv';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const copyPath = fileURLToPath(new URL('./agent-events.openapi.json', import.meta.url));
const publishedPath = fileURLToPath(new URL('../../../../shared/spec/agent-events.openapi.json', import.meta.url));
const copy = readFileSync(copyPath, 'utf8');
if (existsSync(publishedPath) && readFileSync(publishedPath, 'utf8') !== copy) {
  throw new Error(`the published OpenAPI document changed: copy ${publishedPath} to ${copyPath}`);
}
const spec = JSON.parse(copy);

// OpenAPI 3.0 schema objects are JSON Schema plus keywords like `example`; strict mode would reject those.
const ajv = new Ajv({ strict: false, allErrors: true });
ajv.addSchema(spec, 'openapi');

const compile = (name: string) => {
  const validateFn = ajv.getSchema(`openapi#/components/schemas/${name}`);
  if (!validateFn) throw new Error(`no schema ${name} in the OpenAPI document`);
  return (value: unknown): string[] => (validateFn(value) ? [] : (validateFn.errors ?? []).map((e) => `${e.instancePath} ${e.message}`));
};

/** Each returns the list of violations (empty when valid). */
export const openapi = {
  eventRequest: compile('EventRequest'),
  eventResponse: compile('EventResponse'),
  errorResponse: compile('ErrorResponse'),
};
