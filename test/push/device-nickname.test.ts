/**
 * A device's nickname (POST /api/push/subscribe) is one line of at most 64 characters counted as
 * a person counts them: a family emoji (seven code points), a flag or a letter with a combining
 * accent is one character. 64 such characters are kept whole; 65, or a control character or a
 * line break anywhere, are 400 naming body.nickname, and nothing is stored.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { type PushStandIn, startPushStandIn } from '../helpers/push-stand-in.js';
import { startServer, type TestServer } from '../helpers/server.js';

let push: PushStandIn;
let s: TestServer;

/** `n` characters, the first nine of 22 code points (family emoji, flag, e with a combining accent). */
const chars = (n: number) => `${'👨‍👩‍👧‍👦🇳🇿e\u0301'.repeat(3)}${'x'.repeat(n - 9)}`;

beforeAll(async () => {
  push = await startPushStandIn();
  s = await startServer({
    env: { KLEBB_PUSH_ALLOW_PRIVATE_ENDPOINTS: '1' },
    push: { agent: push.agent, autoStart: false },
  });
});
afterAll(async () => {
  await s.close();
  await push.close();
});
beforeEach(() => {
  for (const row of s.inst.push.subs.all()) s.inst.push.subs.removeId(row.id);
});

const subscribe = (nickname: unknown) => {
  const sub = push.subscribe();
  return s.api('/api/push/subscribe', { json: { endpoint: sub.endpoint, keys: sub.keys, nickname } });
};

it('keeps a nickname of 64 characters whole, however many code points they take', async () => {
  const r = await subscribe(chars(64));
  expect(r.status, r.text).toBe(201);
  expect(s.inst.push.subs.all().map((x) => x.nickname)).toEqual([chars(64)]);
});

it.each([
  ['65 characters', chars(65)],
  ['a newline', 'Anna\nphone'],
  ['a tab', 'Anna\tphone'],
  ['a NUL', 'Anna\u0000'],
  ['a C1 control', 'Anna\u0085phone'],
  ['a line separator', 'Anna\u2028phone'],
])('refuses %s with 400 naming body.nickname; nothing is stored', async (_what, nickname) => {
  const r = await subscribe(nickname);
  expect(r.status, r.text).toBe(400);
  expect(r.body.details.map((d: { path: string }) => d.path)).toEqual(['body.nickname']);
  expect(s.inst.push.subs.all()).toEqual([]);
});
