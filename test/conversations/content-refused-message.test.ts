// A message the provider's content filter refused (Azure OpenAI's 400 content_filter for a
// question about doses, OpenRouter's moderation) stayed in the stored conversation and went out
// again with every later turn, so each later message of that conversation was refused too, and
// the person's only way out was a new conversation. Now the refused message stays in the
// transcript marked `refused`, and later turns leave it out. A refusal after a tool already ran
// (the request then held tool results, not only the person's words) marks nothing. Real server
// and store, a scripted chat-completions endpoint. The side call that names an untitled
// conversation leaves the refused message out too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptedGateway } from '../helpers/scripted-gateway.js';
import type { TestServer } from '../helpers/server.js';
import { bootChat, eventually, isTitleCall } from './conv-helpers.js';

let gw: ScriptedGateway;
let s: TestServer;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ gw, s, close } = await bootChat());
});
afterAll(async () => {
  await close();
});

const AZURE_REFUSAL = {
  kind: 'error' as const,
  status: 400,
  body: {
    error: {
      message:
        "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry.",
      type: null,
      param: 'prompt',
      code: 'content_filter',
      status: 400,
    },
  },
};

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies
const conversation = async (id: string): Promise<any> =>
  (await s.api(`/api/conversations/${id}`)).body.conversation;
const newConversation = async () =>
  (await s.api('/api/conversations', { json: { title: 'Doses' } })).body.conversation.id as string;
const say = (id: string, content: string) =>
  s.api('/api/chat', { json: { conversationId: id, messages: [{ role: 'user', content }] } });
/** The user messages of the newest request to the model (title calls left out). */
const lastSentUserTexts = () => {
  const turns = gw.requests.filter((r) => !isTitleCall(r.body));
  const msgs = turns[turns.length - 1].body.messages as { role: string; content: unknown }[];
  // the newest message may go as content parts (with a cache mark)
  const text = (c: unknown) =>
    typeof c === 'string' ? c : (c as { text?: string }[]).map((p) => p.text ?? '').join('');
  return msgs.filter((m) => m.role === 'user').map((m) => text(m.content));
};

describe('a message the content filter refused', () => {
  it('stays in the transcript, marked, and is not sent again with later messages', async () => {
    const id = await newConversation();
    gw.script(AZURE_REFUSAL);
    const refused = await say(id, 'how many of my sleeping pills would be too many');
    expect(refused.status).toBe(502);
    expect(refused.body.error).toMatch(/content filter refused this message/);
    const stored = (await conversation(id)).messages;
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ role: 'user', refused: true });

    gw.script({ kind: 'reply', text: 'Your weight is 80 kg.' });
    const next = await say(id, 'what is my weight');
    expect(next.status, next.text).toBe(200);
    expect(lastSentUserTexts()).toEqual(['what is my weight']);
    const after = (await conversation(id)).messages;
    expect(after.map((m: { content: string }) => m.content)).toEqual([
      'how many of my sleeping pills would be too many',
      'what is my weight',
      'Your weight is 80 kg.',
    ]);
    expect(after[1].refused).toBeUndefined();
    await eventually(() => gw.remaining === 0, 'the script to be used up');
  });

  it('a refusal after a tool ran marks nothing: the request held the tool results too', async () => {
    const id = await newConversation();
    gw.script(
      { kind: 'reply', toolCalls: [{ id: 'l1', name: 'list_manifests', arguments: {} }] },
      AZURE_REFUSAL,
      { kind: 'reply', text: 'Here are your cards.' },
    );
    const failed = await say(id, 'which cards do I have');
    expect(failed.status).toBe(502);
    expect((await conversation(id)).messages[0].refused).toBeUndefined();
    const again = await say(id, 'and now?');
    expect(again.status, again.text).toBe(200);
    expect(lastSentUserTexts()).toEqual(['which cards do I have', 'and now?']);
  });
});

describe('a refused first message and the title', () => {
  it('the title is made from the first exchange the filter let through, never from the refused message', async () => {
    const id = (await s.api('/api/conversations', { json: {} })).body.conversation.id as string;
    gw.script(AZURE_REFUSAL);
    expect((await say(id, 'how many of my sleeping pills would be too many')).status).toBe(502);
    gw.script({ kind: 'reply', text: 'You slept 7 hours.' }, { kind: 'reply', text: 'Last night’s sleep' });
    const next = await say(id, 'how did I sleep');
    expect(next.status, next.text).toBe(200);
    await eventually(async () => (await conversation(id)).title !== null, 'the title to be set');
    expect((await conversation(id)).title).toBe('Last night’s sleep');
    const titleCalls = gw.requests.filter((r) => isTitleCall(r.body));
    const sent = JSON.stringify(titleCalls[titleCalls.length - 1].body);
    expect(sent).toContain('how did I sleep');
    expect(sent).not.toContain('sleeping pills');
  });
});

describe('messages a client sends marked refused', () => {
  it('are stored with the mark and never sent; the new message marked refused is 400, nothing stored', async () => {
    const id = await newConversation();
    gw.script({ kind: 'reply', text: 'Your weight is 80 kg.' });
    const r = await s.api('/api/chat', {
      json: {
        conversationId: id,
        messages: [
          { role: 'user', content: 'how many of my sleeping pills would be too many', refused: true },
          { role: 'user', content: 'what is my weight' },
        ],
      },
    });
    expect(r.status, r.text).toBe(200);
    expect(lastSentUserTexts()).toEqual(['what is my weight']);
    const stored = (await conversation(id)).messages;
    expect(stored[0]).toMatchObject({
      content: 'how many of my sleeping pills would be too many',
      refused: true,
    });
    expect(stored[1].refused).toBeUndefined();

    const sentBefore = gw.requests.length;
    for (const [refused, message] of [
      [true, 'must not be true on the new message'],
      ['yes', 'must be true or false'],
    ]) {
      const bad = await s.api('/api/chat', {
        json: { conversationId: id, messages: [{ role: 'user', content: 'and my pulse', refused }] },
      });
      expect(bad.status, bad.text).toBe(400);
      expect(bad.body.details).toEqual([{ path: 'body.messages[0].refused', message }]);
    }
    expect(gw.requests.length).toBe(sentBefore);
    expect((await conversation(id)).messages).toHaveLength(3);
  });

  it('without a conversation, the transcript goes to the model without them', async () => {
    gw.script({ kind: 'reply', text: 'Your weight is 80 kg.' });
    const r = await s.api('/api/chat', {
      json: {
        messages: [
          { role: 'user', content: 'how many of my sleeping pills would be too many', refused: true },
          { role: 'user', content: 'what is my weight' },
        ],
      },
    });
    expect(r.status, r.text).toBe(200);
    expect(lastSentUserTexts()).toEqual(['what is my weight']);
  });
});
