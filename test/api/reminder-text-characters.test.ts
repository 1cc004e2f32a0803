/**
 * A reminder's title (at most 30 characters), label and body (80) are counted as a person counts
 * characters: a family emoji, a flag, a skin tone or a letter with a combining accent is one, not
 * the several code points it is made of. A title a person counts as 30 is taken and stored as
 * written, whoever writes it (REST, the chat's set_notification over MCP); 31 is refused naming
 * the field and the count.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { graphemeLength } from '../../src/common/graphemes.js';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'reminder-chars-token';
let s: TestServer;
beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
});
afterAll(async () => {
  await s?.close();
});

const card = (id: string, over: Record<string, unknown>) => ({
  $schema: 'klebb.datafile.v1',
  meta: {
    id,
    label: id,
    writeable: { fromWebapp: true },
    notifications: {
      items: [
        {
          id: 'evening',
          label: 'Evening',
          title: 'Log it',
          body: 'Time to log',
          trigger: { type: 'daily', time: '21:00' },
          ...over,
        },
      ],
    },
  },
  data: [],
});

const FAMILY = '👨‍👩‍👧‍👦'; // 7 code points, one character

/** `text` followed by dots up to `n` characters as a person counts them. */
const padTo = (text: string, n: number) => `${text}${'.'.repeat(n - graphemeLength(text))}`;

const TITLES: [string, string][] = [
  ['a family emoji', padTo(`Vitamin D for the kids ${FAMILY}`, 30)],
  ['two flags', padTo('Call home 🇩🇪🇳🇿', 30)],
  ['a skin tone and a heart on fire', padTo('Stretch 👍🏽 and breathe ❤️‍🔥', 30)],
  // written decomposed (a letter and combining marks), as some keyboards send Vietnamese
  ['combining accents', padTo('Uo\u031b\u0301ng thuo\u0302\u0301c bui\u0302\u0309i sa\u0301ng', 30)],
  ['Hindi vowel signs', padTo('दवा लेना है सुबह शाम', 30)],
];

it.each(TITLES)('a 30-character title with %s is taken and stored as written', async (_what, title) => {
  expect(graphemeLength(title)).toBe(30);
  expect([...title].length).toBeGreaterThan(30);
  const id = `t${Math.random().toString(36).slice(2, 8)}`;
  const r = await s.api('/api/manifests', { token: T, json: card(id, { title }) });
  expect(r.status, r.text).toBe(201);
  const got = (await s.api(`/api/manifests/${id}`, { token: T })).body.meta.notifications.items[0].title;
  expect(got).toBe(title);
});

it('31 such characters are refused, naming the field and the count as a person counts', async () => {
  const title = padTo(`Vitamin D for the kids ${FAMILY}`, 31);
  expect(graphemeLength(title)).toBe(31);
  const r = await s.api('/api/manifests', { token: T, json: card('over', { title }) });
  expect(r.status).toBe(422);
  expect(r.body.details[0].path).toBe('meta.notifications.items[0].title');
  expect(r.body.error).toContain('at most 30 characters (got 31)');
});

it('label and body: 80 characters with emoji are taken', async () => {
  const body = padTo(`Drink a glass ${FAMILY}🇳🇿💧🏃‍♀️👍🏽`, 80);
  const label = padTo(`Water 🇳🇿${FAMILY}👍🏽🏃‍♀️💧🇩🇪`, 80);
  expect([...body].length).toBeGreaterThan(80);
  const r = await s.api('/api/manifests', { token: T, json: card('water', { body, label }) });
  expect(r.status, r.text).toBe(201);
});

it("the chat's set_notification takes the same title", async () => {
  expect(
    (
      await s.api('/api/manifests', {
        token: T,
        json: { ...card('chat', {}), meta: { id: 'chat', label: 'Chat', writeable: { fromWebapp: true } } },
      })
    ).status,
  ).toBe(201);
  const client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${T}` } },
    }),
  );
  try {
    const title = TITLES[0][1];
    const r = await client.callTool({
      name: 'set_notification',
      arguments: {
        card_id: 'chat',
        label: 'Kids',
        title,
        body: 'One each',
        trigger: { type: 'daily', time: '08:00' },
      },
    });
    expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
    const items = (await s.api('/api/manifests/chat', { token: T })).body.meta.notifications.items;
    expect(items[0].title).toBe(title);
  } finally {
    await client.close();
  }
});
