/**
 * "Sent once" across several proxy instances (see replay.ts): the requests claimed and the agent's
 * answers in Redis, one key per request, `{content}\n` while the agent is on it and
 * `{content}\n{answer}` once it answered (kept `keepMs`). A try that finds the request claimed
 * elsewhere reads the key again every `pollMs` until the answer is there. Each step is one atomic
 * Lua call, so two instances never both claim a request. While Redis does not answer (within
 * `timeoutMs`), every try goes to the agent, as without the store, said once per outage.
 */
import { redisCalls, type RedisEvalClient } from './redis-store.js';
import type { Answer, ReplayStore } from './replay.js';

export interface RedisReplayStoreOptions {
  /** Prepended to every key (default `agent-chat:replay:`). */
  prefix?: string;
  /** How long an answer is kept after it came (default 10 minutes). */
  keepMs?: number;
  /** How long a claim holds while the agent is on the request (default 3 minutes: more than the proxy's `lateAnswerMs`). */
  claimMs?: number;
  /** How often a try waiting for another instance's answer looks again (default 100 ms). */
  pollMs?: number;
  /** How long to wait for Redis before treating it as down (default 500 ms). */
  timeoutMs?: number;
  /** Where the outage (and the recovery) is reported (default `console.error`). */
  report?: (message: string) => void;
}

// The request's key holds `content\n` (claimed) or `content\nanswer`: a claim of the same content
// gets it; anything else (nothing, another content) is claimed anew.
const CLAIM = `local v = redis.call('GET', KEYS[1])
if v and string.sub(v, 1, string.len(ARGV[1]) + 1) == ARGV[1] .. '\\n' then return v end
redis.call('SET', KEYS[1], ARGV[1] .. '\\n', 'PX', ARGV[2])
return false`;

// Only the claim it settles: the answer kept, or the claim let go (no answer to keep).
const SETTLE = `if redis.call('GET', KEYS[1]) ~= ARGV[1] .. '\\n' then return 0 end
if ARGV[2] == '' then redis.call('DEL', KEYS[1]) else redis.call('SET', KEYS[1], ARGV[1] .. '\\n' .. ARGV[2], 'PX', ARGV[3]) end
return 1`;

const READ = `return redis.call('GET', KEYS[1])`;

export function redisReplayStore(client: RedisEvalClient, options: RedisReplayStoreOptions = {}): ReplayStore {
  const { prefix = 'agent-chat:replay:', keepMs = 10 * 60_000, claimMs = 3 * 60_000, pollMs = 100, timeoutMs = 500, report = console.error } = options;
  const call = redisCalls(timeoutMs, report, {
    down: (cause) => `agent-chat proxy: the replay store (Redis) is unavailable (${cause}); every try goes to the agent until it is back`,
    back: 'agent-chat proxy: the replay store (Redis) answers again; a request tried again reaches the agent once',
  });
  /** One script on the request's key. */
  const run = (script: string, key: string, args: string[]) => call(() => client.eval(script, { keys: [`${prefix}${key}`], arguments: args }));

  /** The answer in a key's value (`content\nanswer`), or undefined while the request is only claimed. */
  const answerIn = (value: string, content: string): Answer | undefined => {
    const answer = value.slice(content.length + 1);
    return answer ? (JSON.parse(answer) as Answer) : undefined;
  };

  /** Reads the key every `pollMs` until its answer is there (or the claim is gone: undefined), for `waitMs` at most. */
  async function poll(key: string, content: string, waitMs: number): Promise<Answer | undefined> {
    const until = Date.now() + waitMs;
    while (Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, pollMs));
      let value: unknown;
      try {
        value = await run(READ, key, []);
      } catch {
        return undefined;
      }
      if (typeof value !== 'string' || !value.startsWith(`${content}\n`)) return undefined;
      const answer = answerIn(value, content);
      if (answer) return answer;
    }
    return undefined;
  }

  return {
    async claim(key, content, waitMs) {
      let value: unknown;
      try {
        value = await run(CLAIM, key, [content, String(claimMs)]);
      } catch {
        return undefined; // Redis down: this try goes to the agent
      }
      if (typeof value !== 'string') return undefined;
      const answer = answerIn(value, content);
      return { answer: answer ? Promise.resolve(answer) : poll(key, content, waitMs) };
    },
    settle(key, content, answer) {
      void run(SETTLE, key, [content, answer ? JSON.stringify(answer) : '', String(keepMs)]).catch(() => undefined);
    },
  };
}
