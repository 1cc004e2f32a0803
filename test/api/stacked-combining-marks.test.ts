/**
 * Text limits in characters and the combining marks a letter can carry: "a" followed by ten
 * thousand U+0301 is one user-perceived character, so a limit counting clusters alone let it
 * through whole. Every such limit also bounds the text's UTF-16 units, whether it refuses (a card
 * label, an entry's note, a reminder title) or cuts (a feedback note, a conversation title).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UNITS_PER_CHARACTER } from '../../src/common/graphemes.js';
import {
  MAX_CARD_LABEL_CHARS,
  MAX_CONVERSATION_TITLE_CHARS,
  MAX_FEEDBACK_CONTEXT_CHARS,
  MAX_FEEDBACK_INTENT_CHARS,
} from '../../src/limits.js';
import { startServer, type TestServer } from '../helpers/server.js';

/** One letter under `marks` combining acute accents: one character as people count them. */
const stacked = (marks: number) => `a${'\u0301'.repeat(marks)}`;
const HUGE = stacked(10_000);

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.close();
});

const card = (id: string, meta: Record<string, unknown> = {}) => ({
  $schema: 'klebb.datafile.v1',
  meta: { id, label: id, ...meta },
  data: [],
});

describe('texts that are cut keep a bounded number of units', () => {
  it('a feedback note and its context', async () => {
    const r = await s.api('/api/feedback', { json: { intent: `crash ${HUGE}`, context: HUGE } });
    expect(r.status).toBe(201);
    const lines = fs.readFileSync(path.join(s.home, 'data', '_meta', 'feedback.jsonl'), 'utf8').trim();
    const entry = JSON.parse(lines.split('\n').at(-1) as string);
    expect(entry.intent.length).toBeLessThanOrEqual(MAX_FEEDBACK_INTENT_CHARS * MAX_UNITS_PER_CHARACTER);
    expect(entry.intent.startsWith('crash ')).toBe(true);
    expect((entry.context ?? '').length).toBeLessThanOrEqual(
      MAX_FEEDBACK_CONTEXT_CHARS * MAX_UNITS_PER_CHARACTER,
    );
  });

  it('a conversation title, given and renamed', async () => {
    const made = await s.api('/api/conversations', { json: { title: `Plan ${HUGE}` } });
    expect(made.status).toBe(201);
    const budget = MAX_CONVERSATION_TITLE_CHARS * MAX_UNITS_PER_CHARACTER;
    const conv = made.body.conversation;
    expect(conv.title.length).toBeLessThanOrEqual(budget);
    expect(conv.title.startsWith('Plan')).toBe(true);
    const renamed = await s.api(`/api/conversations/${conv.id}`, {
      method: 'PATCH',
      json: { title: HUGE },
    });
    expect(renamed.status).toBe(200);
    expect((renamed.body.conversation.title ?? '').length).toBeLessThanOrEqual(budget);
  });
});

describe('texts that are refused name the field', () => {
  it('a card label', async () => {
    const r = await s.api('/api/manifests', { json: card('marks-label', { label: HUGE }) });
    expect(r.status).toBe(400);
    expect(r.body.details).toContainEqual({
      path: 'meta.label',
      message: `meta.label is too long; at most ${MAX_CARD_LABEL_CHARS}`,
    });
    expect((await s.api('/api/manifests/marks-label')).status).toBe(404);
  });

  it("an entry's note over its input's maxLength", async () => {
    const made = await s.api('/api/manifests', {
      json: card('marks-note', {
        writeable: {
          fromWebapp: true,
          inputs: [{ key: 'note', type: 'textarea', label: 'Note', maxLength: 500 }],
        },
      }),
    });
    expect(made.status).toBe(201);
    const r = await s.api('/api/manifests/marks-note/entries', { json: { entry: { note: HUGE } } });
    expect(r.status).toBe(422);
    expect(r.body.details).toEqual([
      { path: 'body.entry.note', message: 'Note must be at most 500 characters long' },
    ]);
    expect((await s.api('/api/manifests/marks-note/data')).body.data).toEqual([]);
  });

  it('a reminder title', async () => {
    const r = await s.api('/api/manifests', {
      json: card('marks-reminder', {
        notifications: {
          items: [
            {
              id: 'morning',
              label: 'Morning',
              title: HUGE,
              body: 'Log it',
              trigger: { type: 'daily', time: '08:00' },
            },
          ],
        },
      }),
    });
    expect(r.status).toBe(422);
    expect(JSON.stringify(r.body.details)).toContain('meta.notifications.items[0].title');
  });
});
