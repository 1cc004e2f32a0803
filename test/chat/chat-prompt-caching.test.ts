// Prompt caching as the gateway sees it (docs/CHAT-AGENT.md "Prompt caching (CHAT_PROMPT_CACHE)";
// docs/CHAT-AGENT.md "System prompt structure"): the system message is
// [static + breakpoint, instance + breakpoint, volatile without], the static bytes never change
// between round-trips or turns, a new card changes only the instance part, today's date and the
// card in focus live in the volatile part, and CHAT_PROMPT_CACHE=0 sends the same text flat.
import { afterEach, describe, expect, it } from 'vitest';
import { VOICE_ENVELOPE } from '../../src/chat/prompt/voice.js';
import { chatServers } from '../helpers/chat-server.js';
import { contentText } from '../helpers/scripted-gateway.js';
import type { TestServer } from '../helpers/server.js';
import { postSse } from '../helpers/sse-client.js';

const servers = chatServers({});
const boot = servers.boot;
afterEach(() => servers.closeAll(({ gw }) => expect(gw.remaining).toBe(0)));

interface Part {
  type: string;
  text: string;
  cache_control?: unknown;
}

/** The system message's content of a recorded request. */
// biome-ignore lint/suspicious/noExplicitAny: recorded request bodies are untyped JSON
function systemOf(req: { body: any }): Part[] | string {
  const first = req.body.messages[0];
  expect(first.role).toBe('system');
  return first.content;
}

function partsOf(req: Parameters<typeof systemOf>[0]): { static: Part; instance: Part; volatile: Part } {
  const content = systemOf(req);
  expect(Array.isArray(content)).toBe(true);
  const parts = content as Part[];
  expect(parts).toHaveLength(3);
  return { static: parts[0], instance: parts[1], volatile: parts[2] };
}

async function chat(s: TestServer, extra: Record<string, unknown> = {}): Promise<void> {
  const r = await s.api('/api/chat', { json: { messages: [{ role: 'user', content: 'hello' }], ...extra } });
  expect(r.status).toBe(200);
}

function card(id: string, label: string): Record<string, unknown> {
  return {
    $schema: 'klebb.datafile.v1',
    meta: {
      id,
      label,
      emoji: '⚖️',
      view: { enabled: true, component: 'list-card' },
      writeable: { fromWebapp: true, inputs: [{ key: 'kg', label: 'kg', type: 'number', required: true }] },
    },
    description: `${label} readings`,
    data: [],
  };
}

/** Today's date in this process's time zone (the server runs in it too), as YYYY-MM-DD. */
function todayHere(): string {
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());
}

describe('CHAT_PROMPT_CACHE on (the default)', () => {
  it('the system message is [static + ephemeral breakpoint, instance + ephemeral breakpoint, volatile with none]', async () => {
    const { gw, s } = await boot();
    gw.script({ kind: 'reply', text: 'Hi.' });
    await chat(s);
    const p = partsOf(gw.requests[0]);
    for (const part of [p.static, p.instance, p.volatile]) {
      expect(part.type).toBe('text');
      expect(typeof part.text).toBe('string');
      expect(part.text.length).toBeGreaterThan(0);
    }
    expect(p.static.cache_control).toEqual({ type: 'ephemeral' });
    expect(p.instance.cache_control).toEqual({ type: 'ephemeral' });
    expect('cache_control' in p.volatile).toBe(false);
    // the segment contents (seed table): base prompt + catalogues / cards + reports / date + focus
    expect(p.instance.text).toContain('## Currently available cards');
    expect(p.volatile.text).toContain("## Today's date");
    expect(p.static.text).not.toContain("## Today's date");
    expect(p.static.text).not.toContain('## Currently available cards');
  });

  it('the static part is byte-identical across the round-trips of one turn and across separate turns', async () => {
    const { gw, s } = await boot();
    gw.script(
      { kind: 'reply', toolCalls: [{ id: 't1', name: 'list_manifests', arguments: {} }] },
      { kind: 'reply', toolCalls: [{ id: 't2', name: 'get_recent_activity', arguments: {} }] },
      { kind: 'reply', text: 'Nothing tracked yet.' },
    );
    await chat(s);
    gw.script({ kind: 'reply', text: 'Still nothing.' });
    await chat(s, { messages: [{ role: 'user', content: 'and now?' }] });
    expect(gw.requests).toHaveLength(4);
    const statics = gw.requests.map((q) => JSON.stringify(partsOf(q).static));
    expect(new Set(statics).size).toBe(1);
    // within the turn (no writes) the whole system message repeats exactly: the round-trips hit the cache
    const systems = gw.requests.slice(0, 3).map((q) => JSON.stringify(systemOf(q)));
    expect(new Set(systems).size).toBe(1);
    // and the prefix bytes on the wire are the same too
    const prefix = (raw: string) => raw.slice(raw.indexOf('"messages"'), raw.indexOf('"cache_control"'));
    expect(new Set(gw.requests.map((q) => prefix(q.rawBody))).size).toBe(1);
  });

  it('creating a card between turns changes the instance part and not the static one', async () => {
    const { gw, s } = await boot();
    gw.script({ kind: 'reply', text: 'One.' });
    await chat(s);
    expect((await s.api('/api/manifests', { json: card('blood-pressure', 'Blood Pressure') })).status).toBe(
      201,
    );
    gw.script({ kind: 'reply', text: 'Two.' });
    await chat(s);
    const before = partsOf(gw.requests[0]);
    const after = partsOf(gw.requests[1]);
    expect(after.static).toEqual(before.static);
    expect(after.instance.text).not.toBe(before.instance.text);
    expect(before.instance.text).not.toContain('blood-pressure');
    expect(after.instance.text).toContain('blood-pressure');
    expect(after.instance.cache_control).toEqual({ type: 'ephemeral' });
  });

  it('a card created by a tool inside one turn shows up in the instance part of the next turn', async () => {
    const { gw, s } = await boot();
    gw.script(
      {
        kind: 'reply',
        toolCalls: [{ id: 'c1', name: 'create_manifest', arguments: { manifest: card('weight', 'Weight') } }],
      },
      { kind: 'reply', text: 'Created.' },
    );
    await chat(s);
    gw.script({ kind: 'reply', text: 'Yes.' });
    await chat(s);
    const first = partsOf(gw.requests[0]);
    const next = partsOf(gw.requests[2]);
    expect(first.instance.text).not.toContain('weight');
    expect(next.instance.text).toContain('weight');
    expect(next.static).toEqual(first.static);
  });

  it("the volatile part holds today's date (and the static and instance parts do not)", async () => {
    const { gw, s } = await boot();
    gw.script({ kind: 'reply', text: 'Hi.' });
    const today = todayHere();
    await chat(s);
    const p = partsOf(gw.requests[0]);
    expect(p.volatile.text).toContain(today);
    expect(p.static.text).not.toContain(today);
    expect(p.instance.text).not.toContain(today);
  });

  it('viewedCardId adds a "Card in focus" block to the volatile part only, and only when the card exists', async () => {
    const { gw, s } = await boot();
    expect((await s.api('/api/manifests', { json: card('weight', 'Weight') })).status).toBe(201);
    gw.script({ kind: 'reply', text: 'a' }, { kind: 'reply', text: 'b' }, { kind: 'reply', text: 'c' });
    await chat(s);
    await chat(s, { viewedCardId: 'weight' });
    await chat(s, { viewedCardId: 'no-such-card' });
    const [plain, focused, unknown] = gw.requests.map(partsOf);
    expect(plain.volatile.text).not.toContain('Card in focus');
    expect(focused.volatile.text).toContain('## Card in focus');
    expect(focused.volatile.text.slice(focused.volatile.text.indexOf('Card in focus'))).toContain('weight');
    expect(focused.volatile.text).toContain(todayHere());
    expect(unknown.volatile.text).not.toContain('Card in focus');
    // focus never touches the cached parts
    expect(focused.static).toEqual(plain.static);
    expect(focused.instance).toEqual(plain.instance);
    expect(unknown.volatile.text).toBe(plain.volatile.text);
  });

  it('the streamed path sends the same system message shape', async () => {
    const { gw, s } = await boot();
    gw.script({ kind: 'reply', text: 'Hi.' });
    const r = await postSse(`${s.url}/api/chat`, {
      stream: true,
      messages: [{ role: 'user', content: 'hello' }],
    });
    expect(r.events.at(-1)?.event).toBe('done');
    const p = partsOf(gw.requests[0]);
    expect(p.static.cache_control).toEqual({ type: 'ephemeral' });
    expect(p.instance.cache_control).toEqual({ type: 'ephemeral' });
    expect('cache_control' in p.volatile).toBe(false);
  });
});

/** Where the marks of a request sit: `system` parts, then `<index>:<role>` of each marked message. */
// biome-ignore lint/suspicious/noExplicitAny: recorded request bodies are untyped JSON
function marksOf(req: { body: any }): string[] {
  const out: string[] = [];
  // biome-ignore lint/suspicious/noExplicitAny: recorded request bodies are untyped JSON
  req.body.messages.forEach((m: any, i: number) => {
    const parts = Array.isArray(m.content) ? m.content : [];
    // biome-ignore lint/suspicious/noExplicitAny: recorded request bodies are untyped JSON
    for (const p of parts.filter((x: any) => 'cache_control' in x)) {
      expect(p.cache_control).toEqual({ type: 'ephemeral' });
      out.push(m.role === 'system' ? 'system' : `${i}:${m.role}`);
    }
  });
  return out;
}

/** Messages with the marks taken out and marked content read back as text. */
// biome-ignore lint/suspicious/noExplicitAny: recorded request bodies are untyped JSON
function unmarked(messages: any[]): { role: string }[] {
  return messages.map((m) =>
    m.role === 'system' || typeof m.content === 'string' || m.content === null
      ? JSON.parse(JSON.stringify(m, (k, v) => (k === 'cache_control' ? undefined : v)))
      : { ...m, content: contentText(m.content) },
  );
}

describe('the cache mark that moves with the conversation', () => {
  it("each round-trip marks its newest message and the previous round-trip's newest, never more than 4 marks", async () => {
    const { gw, s } = await boot();
    gw.script(
      { kind: 'reply', toolCalls: [{ id: 't1', name: 'list_manifests', arguments: {} }] },
      { kind: 'reply', toolCalls: [{ id: 't2', name: 'get_recent_activity', arguments: {} }] },
      { kind: 'reply', text: 'Nothing tracked yet.' },
    );
    await chat(s);
    expect(gw.requests.map(marksOf)).toEqual([
      ['system', 'system', '1:user'],
      ['system', 'system', '1:user', '3:tool'],
      ['system', 'system', '3:tool', '5:tool'],
    ]);
    // what a round-trip sent is sent again unchanged (marks aside: a provider's cache key is the
    // content) and marked where it ended: the next request reads that entry instead of paying again
    for (const k of [0, 1]) {
      const before = unmarked(gw.requests[k].body.messages);
      const after = unmarked(gw.requests[k + 1].body.messages);
      expect(after.slice(0, before.length)).toEqual(before);
      expect(marksOf(gw.requests[k + 1])).toContain(`${before.length - 1}:${before.at(-1)?.role}`);
    }
    // a marked tool result is one text part holding the same text the tool answered
    const marked = gw.requests[2].body.messages[5];
    expect(marked.content).toHaveLength(1);
    expect(JSON.parse(contentText(marked.content))).toHaveProperty('today');
  });

  it('a conversation turn marks the new message and the end of the previous turn', async () => {
    const { gw, s } = await boot();
    gw.script({ kind: 'reply', text: 'Hi.' });
    await chat(s, {
      messages: [
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: 'second' },
      ],
    });
    expect(marksOf(gw.requests[0])).toEqual(['system', 'system', '1:user', '3:user']);
  });
});

describe('CHAT_PROMPT_CACHE=0', () => {
  it("the system content is one string: the three parts' texts joined with a blank line, and no cache_control anywhere", async () => {
    const on = await boot();
    const off = await boot({ CHAT_PROMPT_CACHE: '0' });
    on.gw.script({ kind: 'reply', text: 'Hi.' });
    off.gw.script({ kind: 'reply', text: 'Hi.' });
    await chat(on.s, { viewedCardId: 'nothing' });
    await chat(off.s, { viewedCardId: 'nothing' });
    const p = partsOf(on.gw.requests[0]);
    const flat = systemOf(off.gw.requests[0]);
    expect(typeof flat).toBe('string');
    expect(flat).toBe([p.static.text, p.instance.text, p.volatile.text].join('\n\n'));
    expect(off.gw.requests[0].rawBody).not.toContain('cache_control');
  });

  it('tool results stay strings and no message carries a mark', async () => {
    const { gw, s } = await boot({ CHAT_PROMPT_CACHE: '0' });
    gw.script(
      { kind: 'reply', toolCalls: [{ id: 't1', name: 'list_manifests', arguments: {} }] },
      { kind: 'reply', text: 'Done.' },
    );
    await chat(s);
    const last = gw.requests[1].body.messages.at(-1);
    expect(last.role).toBe('tool');
    expect(typeof last.content).toBe('string');
    expect(gw.requests.map((q) => q.rawBody).join('')).not.toContain('cache_control');
  });

  it('the flat form keeps the same order: static text first, volatile (date) last', async () => {
    const { gw, s } = await boot({ CHAT_PROMPT_CACHE: '0' });
    gw.script({ kind: 'reply', text: 'Hi.' });
    await chat(s);
    const flat = systemOf(gw.requests[0]) as string;
    const cards = flat.indexOf('## Currently available cards');
    const date = flat.indexOf("## Today's date");
    expect(cards).toBeGreaterThan(0);
    expect(date).toBeGreaterThan(cards);
  });

  it('a voice turn sends the flat string with the voice envelope in front', async () => {
    const { gw, s } = await boot({ CHAT_PROMPT_CACHE: '0' });
    gw.script({ kind: 'reply', text: '{"speak":"Hi.","display":"Hi."}' });
    await chat(s, { voiceMode: true });
    const flat = systemOf(gw.requests[0]) as string;
    expect(typeof flat).toBe('string');
    expect(flat.startsWith(VOICE_ENVELOPE)).toBe(true);
  });
});
