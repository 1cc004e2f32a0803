// Every gateway case file of the cases folder (outside the repository, see cases-dir.ts) served
// byte for byte behind POST /api/chat, buffered and streamed. A case that is a valid reply must
// end in an answer (never a 500); an error case must give its classified status (see
// docs/CHAT-AGENT.md, "When the model's endpoint fails": budget 429, unavailable / bare 429 /
// other gateway HTTP errors 502, unreadable 500), in streaming mode as an `error {error, status}`
// event followed by `done`.
import { afterEach, describe, expect, it } from 'vitest';
import { chatServers } from '../helpers/chat-server.js';
import type { RecordedRequest, ScriptedGateway, ScriptStep } from '../helpers/scripted-gateway.js';
import type { TestServer } from '../helpers/server.js';
import { postSse } from '../helpers/sse-client.js';
import { casePath } from './cases-dir.js';

/** The form of the tool-call ids Klebb sends (its own, never the provider's). */
const OUR_ID = /^[A-Za-z0-9]{9}$/;

const servers = chatServers({ CHAT_ITER_TIMEOUT_MS: '1000', CHAT_TURN_DEADLINE_MS: '1500' });
const boot = servers.boot;
afterEach(() => servers.closeAll());

type Mode = 'buffered' | 'streamed';
interface Outcome {
  status: number;
  reply?: string;
  error?: string;
  raw: string;
  tokens: string;
}

async function run(s: TestServer, mode: Mode): Promise<Outcome> {
  const body = { messages: [{ role: 'user', content: 'run the case' }] };
  if (mode === 'buffered') {
    const r = await s.api('/api/chat', { json: body });
    return { status: r.status, reply: r.body?.reply, error: r.body?.error, raw: r.text, tokens: '' };
  }
  const r = await postSse(`${s.url}/api/chat`, { stream: true, ...body });
  expect(r.status).toBe(200);
  expect(r.events.at(-1)?.event).toBe('done');
  const last = r.events.at(-2);
  const tokens = r.events
    .filter((e) => e.event === 'token')
    .map((e) => e.data.text)
    .join('');
  const raw = JSON.stringify(r.events);
  if (last?.event === 'error') return { status: last.data.status, error: last.data.error, raw, tokens };
  expect(last?.event).toBe('reply');
  return { status: 200, reply: last?.data.reply, raw, tokens };
}

const raw = (caseId: string, times = 1): ScriptStep[] =>
  Array.from({ length: times }, () => ({ kind: 'raw' as const, caseId }));
const then = (text: string): ScriptStep => ({ kind: 'reply', text });
// biome-ignore lint/suspicious/noExplicitAny: recorded request bodies are untyped JSON
const msgs = (q: RecordedRequest): any[] => q.body.messages;
const toolReplies = (q: RecordedRequest) => msgs(q).filter((m) => m.role === 'tool');
const assistantCalls = (q: RecordedRequest) =>
  msgs(q).find((m) => m.role === 'assistant' && m.tool_calls)?.tool_calls;

interface Case {
  id: string;
  what: string;
  steps: ScriptStep[];
  status: number;
  reply?: string;
  check?: (gw: ScriptedGateway, o: Outcome, mode: Mode) => void;
}

const CASES: Case[] = [
  {
    id: 'G01',
    what: 'object tool arguments: the call runs and the history replays a canonical string',
    steps: [...raw('G01'), then('It is 18 degrees in Paris.')],
    status: 200,
    reply: 'It is 18 degrees in Paris.',
    check: (gw) => {
      expect(gw.requests).toHaveLength(2);
      const call = assistantCalls(gw.requests[1])[0];
      expect(call.id).toMatch(OUR_ID);
      expect(call.function.arguments).toBe('{"city":"Paris","unit":"celsius"}');
      expect(toolReplies(gw.requests[1])).toEqual([
        expect.objectContaining({ tool_call_id: call.id, name: 'get_weather' }),
      ]);
    },
  },
  {
    id: 'G02',
    what: 'streamed tool call without id: a generated id is used for both the call and its tool reply',
    steps: [...raw('G02'), then('Read it.')],
    status: 200,
    reply: 'Read it.',
    check: (gw, o) => {
      expect(gw.requests).toHaveLength(2);
      const call = assistantCalls(gw.requests[1])[0];
      expect(call.function.name).toBe('read_file');
      expect(typeof call.id).toBe('string');
      expect(call.id.trim()).not.toBe('');
      expect(toolReplies(gw.requests[1])).toEqual([
        expect.objectContaining({ tool_call_id: call.id, name: 'read_file' }),
      ]);
      expect(o.tokens).not.toContain('filepath');
    },
  },
  {
    id: 'G04',
    what: 'finish_reason "stop" with tool calls: the tools still run and the loop continues',
    steps: [...raw('G04'), then('Lima is sunny.')],
    status: 200,
    reply: 'Lima is sunny.',
    check: (gw) => {
      expect(gw.requests).toHaveLength(2);
      expect(toolReplies(gw.requests[1])).toEqual([
        expect.objectContaining({ tool_call_id: assistantCalls(gw.requests[1])[0].id, name: 'get_weather' }),
      ]);
    },
  },
  {
    id: 'G06',
    what: 'comment keep-alives are ignored',
    steps: raw('G06'),
    status: 200,
    reply: 'The next day',
  },
  {
    id: 'G07',
    what: 'mid-stream provider error chunk: the turn fails (502) and the half-built call never runs',
    steps: raw('G07', 3),
    status: 502,
    check: (gw) => {
      for (const q of gw.requests) expect(toolReplies(q)).toEqual([]);
    },
  },
  {
    id: 'G08',
    what: 'bare validation error event then EOF: a non-retryable failure (502), no hang',
    steps: raw('G08', 3),
    status: 502,
    check: (gw) => expect(gw.requests).toHaveLength(1),
  },
  {
    id: 'G09',
    what: 'EOF after the final chunk without [DONE] is a normal end',
    steps: raw('G09'),
    status: 200,
    reply: 'Hello!',
  },
  {
    id: 'G11',
    what: '400 "system content must be a string": retried once with string content, then answered',
    steps: [...raw('G11'), then('Hi from Groq.')],
    status: 200,
    reply: 'Hi from Groq.',
    check: (gw) => {
      expect(gw.requests).toHaveLength(2);
      expect(Array.isArray(msgs(gw.requests[0])[0].content)).toBe(true);
      expect(typeof msgs(gw.requests[1])[0].content).toBe('string');
    },
  },
  {
    id: 'G12',
    what: '400 cache_control rejected: retried once without cache_control, then answered',
    steps: [...raw('G12'), then('Hi without caching.')],
    status: 200,
    reply: 'Hi without caching.',
    check: (gw) => {
      expect(gw.requests).toHaveLength(2);
      expect(gw.requests[0].rawBody).toContain('cache_control');
      expect(gw.requests[1].rawBody).not.toContain('cache_control');
    },
  },
  {
    id: 'G13',
    what: '400 with an array error body: a non-retryable request error (502)',
    steps: raw('G13', 3),
    status: 502,
    check: (gw) => expect(gw.requests).toHaveLength(1),
  },
  {
    id: 'G14',
    what: 'nameless tool-call entry next to final text: the text is the answer',
    steps: raw('G14'),
    status: 200,
    reply:
      'I\'ve created a simple "Hello, World!" C++ program. It compiles and prints "Hello, World!" to the console as expected.',
    check: (gw) => expect(gw.requests).toHaveLength(1),
  },
  {
    id: 'G16',
    what: 'reasoning in delta.reasoning is not answer text',
    steps: raw('G16'),
    status: 200,
    reply: 'The answer is 4.',
    check: (_gw, o) => expect(o.tokens).not.toContain('2 plus 2'),
  },
  {
    id: 'G17',
    what: 'usage in a trailing empty-choices chunk',
    steps: raw('G17'),
    status: 200,
    reply: 'Hi there.',
  },
  { id: 'G19', what: 'DeepSeek cache usage fields', steps: raw('G19'), status: 200, reply: 'OK.' },
  {
    id: 'G21',
    what: 'tool arguments with trailing prose: the JSON object is used and the call runs',
    steps: [...raw('G21'), then('Found your open tasks.')],
    status: 200,
    reply: 'Found your open tasks.',
    check: (gw) => {
      expect(gw.requests).toHaveLength(2);
      const call = assistantCalls(gw.requests[1])[0];
      expect(JSON.parse(call.function.arguments)).toEqual({ query: 'TO-DO', limit: 10 });
      expect(toolReplies(gw.requests[1])).toEqual([
        expect.objectContaining({ tool_call_id: call.id, name: 'memory_search' }),
      ]);
    },
  },
  {
    id: 'G22',
    what: 'Cloudflare HTML 502: 502 unavailable copy, no HTML passed on',
    steps: raw('G22', 3),
    status: 502,
    check: (_gw, o) => {
      expect(o.error).toMatch(/unavailable/i);
      expect(o.raw).not.toMatch(/<title|<html|cloudflare|DOCTYPE/i);
    },
  },
  {
    id: 'G23',
    what: '429 with retry-after 6 s beyond the turn budget: fail fast with transient 502, not "allowance"',
    steps: raw('G23', 2),
    status: 502,
    check: (gw, o) => {
      expect(gw.requests).toHaveLength(1);
      expect(o.error).not.toMatch(/allowance/i);
    },
  },
  {
    id: 'G24',
    what: 'CRLF-framed SSE and data: without a space',
    steps: raw('G24'),
    status: 200,
    reply: 'Hello',
  },
  {
    id: 'G26',
    what: 'an SSE stream of non-chat events (our own downstream format) has no answer: 502, never 500',
    steps: raw('G26', 3),
    status: 502,
  },
  {
    id: 'G27',
    what: 'a stream cut mid-event with the socket destroyed: 502, never 500',
    steps: raw('G27', 3),
    status: 502,
  },
];

describe.each(['buffered', 'streamed'] as const)('%s', (mode) => {
  for (const c of CASES) {
    it(c.what, async () => {
      const { gw, s } = await boot();
      gw.script(...c.steps);
      const o = await run(s, mode);
      expect(o.status, `${c.id} answered ${o.status}: ${o.error ?? o.reply}`).toBe(c.status);
      if (c.status === 200) {
        expect(o.reply).toBe(c.reply);
        if (mode === 'streamed' && c.reply !== undefined)
          expect(o.tokens.trim().endsWith(c.reply)).toBe(true);
      } else {
        expect(typeof o.error).toBe('string');
        expect(o.error?.length).toBeGreaterThan(0);
      }
      c.check?.(gw, o, mode);
    });
  }

  it('the rate-limit error tells the user roughly how long to wait (~6 s)', async () => {
    const { gw, s } = await boot();
    gw.script(...raw('G23'));
    const o = await run(s, mode);
    expect(o.status).toBe(502);
    expect(o.error).toMatch(/\b6\s?s\b|6 seconds/);
  });
});

it('every case file in the folder is covered', async () => {
  const { readdirSync } = await import('node:fs');
  const files = readdirSync(casePath('gateway'))
    .filter((f) => /^G\d\d\.txt$/.test(f))
    .map((f) => f.slice(0, 3))
    .sort();
  expect(CASES.map((c) => c.id).sort()).toEqual(files);
});
