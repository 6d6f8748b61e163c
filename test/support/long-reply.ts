/**
 * A reply a language model writes: a list, a nested list, a 6-column table (its figures aligned
 * right), a code line of 200+ characters, a quote, steps numbered on after a paragraph, a task list
 * and a long URL. Read by the readability test and shown by `npm run look`.
 */
export const LONG_REPLY = [
  'Here is the comparison you asked for:',
  '',
  '| Plan | Storage | Uptime | Support | Price | Seats |',
  '|---|---:|---:|---|---:|---:|',
  '| Starter | 10 GB | 99.9 % | Email | €9 | 1 |',
  '| Business | 200 GB | 99.95 % | Chat and phone | €49 | 25 |',
  '| Enterprise | Unlimited | 99.99 % | Dedicated manager | Contact us | Unlimited |',
  '',
  '```js',
  `const chat = document.querySelector('agent-chat'); chat.addEventListener('agent-chat-response', (event) => console.log(event.detail.responses)); // ${'x'.repeat(40)}`,
  '```',
  '',
  '> Prices exclude VAT.',
  '',
  '1. Pick a plan',
  '   - monthly or yearly',
  '2. Pay',
  '',
  'We send the invoice the same day.',
  '',
  '3. Invite your team',
  '',
  '- [x] Account made',
  '- [ ] Team invited',
  '',
  'Details: https://example.com/a/very/long/url/that/goes/on/and/on/pricing?plan=enterprise&currency=eur',
].join('\n');
