/** An obviously fake credential the demo's reference agent and proxy share during e2e runs. */
export const E2E_TOKEN = 'e2e-fake-token-0000-not-a-secret';
