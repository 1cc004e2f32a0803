/**
 * Invisible formatting characters in names and titles: a direction override (U+202E), an isolate
 * (U+2066), a directional mark or a zero-width space changes how a name reads without being
 * seen. A name a request sets (a card's label, an input's label, a reminder's title, a device's
 * nickname, a token's name) holding one is refused naming the field, as a line break is; a title
 * Klebb keeps by cleaning it (a conversation's) has them removed. ZWJ and ZWNJ, which emoji and
 * Persian words need, stay.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTokenRequest } from '../../src/auth/token-store.js';
import { KlebbError } from '../../src/errors.js';
import { type PushStandIn, startPushStandIn } from '../helpers/push-stand-in.js';
import { startServer, type TestServer } from '../helpers/server.js';

let push: PushStandIn;
let s: TestServer;
let s2: TestServer;

beforeAll(async () => {
  push = await startPushStandIn();
  s = await startServer({ push: { agent: push.agent, autoStart: false } });
  s2 = await startServer({
    env: { KLEBB_PUSH_ALLOW_PRIVATE_ENDPOINTS: '1' },
    push: { agent: push.agent, autoStart: false },
  });
});
afterAll(async () => {
  await s.close();
  await s2.close();
  await push.close();
});

const card = (id: string, meta: Record<string, unknown> = {}) => ({
  $schema: 'klebb.datafile.v1',
  meta: { id, label: id, ...meta },
  data: [],
});

const INVISIBLE: [string, string][] = [
  ['a right-to-left override', '\u202E'],
  ['a left-to-right embedding', '\u202A'],
  ['a first strong isolate', '\u2068'],
  ['a pop directional isolate', '\u2069'],
  ['a right-to-left mark', '\u200F'],
  ['a zero-width space', '\u200B'],
  ['a byte order mark', '\uFEFF'],
  ['a word joiner', '\u2060'],
];

describe('names a request sets are refused naming the field', () => {
  it.each(INVISIBLE)('%s in a card label', async (_what, ch) => {
    const r = await s.api('/api/manifests', { json: card('bidi-label', { label: `Weight${ch}gk` }) });
    expect(r.status).toBe(400);
    expect(r.body.details).toEqual([
      { path: 'meta.label', message: expect.stringContaining('invisible character') },
    ]);
    expect((await s.api('/api/manifests/bidi-label')).status).toBe(404);
  });

  it("in an input's label and a reminder's title, and in a patch", async () => {
    const input = await s.api('/api/manifests', {
      json: card('bidi-input', {
        writeable: { fromWebapp: true, inputs: [{ key: 'kg', type: 'number', label: 'kg\u202E' }] },
      }),
    });
    expect(input.status).toBe(400);
    expect(input.body.details.map((d: { path: string }) => d.path)).toEqual([
      'meta.writeable.inputs[0].label',
    ]);
    const reminder = await s.api('/api/manifests', {
      json: card('bidi-reminder', {
        notifications: {
          items: [
            {
              id: 'morning',
              label: 'Morning',
              title: '\u2066Log\u2069',
              body: 'Log it',
              trigger: { type: 'daily', time: '08:00' },
            },
          ],
        },
      }),
    });
    expect(reminder.status).toBe(400);
    expect(reminder.body.details.map((d: { path: string }) => d.path)).toEqual([
      'meta.notifications.items[0].title',
    ]);
    expect((await s.api('/api/manifests', { json: card('bidi-patch') })).status).toBe(201);
    const patch = await s.api('/api/manifests/bidi-patch', {
      method: 'PATCH',
      json: { meta: { label: 'exe.\u202Egpj' } },
    });
    expect(patch.status).toBe(400);
    expect((await s.api('/api/manifests/bidi-patch')).body.meta.label).toBe('bidi-patch');
  });

  it('emoji joined by ZWJ and a Persian word with ZWNJ are names like any other', async () => {
    for (const [id, label] of [
      ['family', 'Family 👨‍👩‍👧'],
      ['persian', 'می\u200Cخواهم'],
      ['flag', 'Walks 🏴󠁧󠁢󠁳󠁣󠁴󠁿'],
    ]) {
      const r = await s.api('/api/manifests', { json: card(`ok-${id}`, { label }) });
      expect(r.status, r.text).toBe(201);
      expect((await s.api(`/api/manifests/ok-${id}`)).body.meta.label).toBe(label);
    }
  });

  it("a device's nickname", async () => {
    const sub = push.subscribe();
    const r = await s2.api('/api/push/subscribe', {
      json: { endpoint: sub.endpoint, keys: sub.keys, nickname: 'Phone\u202E' },
    });
    expect(r.status).toBe(400);
    expect(r.body.details.map((d: { path: string }) => d.path)).toEqual(['body.nickname']);
    expect(s2.inst.push.subs.all()).toHaveLength(0);
    const ok = await s2.api('/api/push/subscribe', {
      json: { endpoint: sub.endpoint, keys: sub.keys, nickname: 'Phone 📱' },
    });
    expect(ok.status).toBe(201);
  });

  it("a token's name", () => {
    for (const [, ch] of INVISIBLE) {
      let err: unknown;
      try {
        parseTokenRequest({ name: `back${ch}up`, access: 'read' });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(KlebbError);
      expect((err as KlebbError).details?.[0].path).toBe('name');
    }
    expect(parseTokenRequest({ name: 'backup 👨‍👩‍👧', access: 'read' }).name).toBe('backup 👨‍👩‍👧');
  });
});

describe('titles Klebb cleans have them removed', () => {
  it('a conversation title, given and renamed', async () => {
    const made = await s.api('/api/conversations', {
      json: { title: 'Plan\u202E for \u2066May\u2069\u200B' },
    });
    expect(made.status).toBe(201);
    expect(made.body.conversation.title).toBe('Plan for May');
    const renamed = await s.api(`/api/conversations/${made.body.conversation.id}`, {
      method: 'PATCH',
      json: { title: '\u200FRuns\u202C' },
    });
    expect(renamed.body.conversation.title).toBe('Runs');
  });
});
