/**
 * The corpus of real gateway behaviours we found in public bug reports, each one of our own byte
 * fixtures (test/fixtures/gateway/<fixture>.txt, whose header names the report) and what Klebb
 * must make of it. Shared by the corpus test, the re-framing property test and the next-request
 * invariant test. (The behaviours handed to us as case files outside the repository run in the
 * cases suite, test/cases/.)
 */
import { expect } from 'vitest';
import type { GatewayResult } from '../../src/chat/gateway/types.js';

const OUR_ID = /^[A-Za-z0-9]{9}$/;

/** What a reply must assemble to: answer text, tool calls as [name, arguments object], usage. */
export interface Expected {
  text?: string;
  calls?: Array<[string, Record<string, unknown>]>;
  usage?: { promptTokens: number; completionTokens: number; totalTokens: number };
  /** Reasoning found inline, when the test should check it. */
  reasoning?: RegExp;
}

/** One corpus entry whose fixture is a reply (not a refusal). */
export interface ReplyBehaviour {
  fixture: string;
  /** The behaviour, said as a test name. */
  behaviour: string;
  expected: Expected;
}

/** The reply fixtures: served as the answer to a streamed request, each must assemble to `expected`. */
export const REPLY_CORPUS: ReplyBehaviour[] = [
  {
    fixture: 'usage-inside-the-choice',
    behaviour: 'usage on the last choice instead of beside the choices is read',
    expected: { text: '你好。', usage: { promptTokens: 19, completionTokens: 13, totalTokens: 32 } },
  },
  {
    fixture: 'one-id-on-parallel-calls',
    behaviour: 'parallel calls under their own indexes sharing one id stay two calls',
    expected: {
      calls: [
        ['append_row', { id: 'water', value: { ml: 250 } }],
        ['append_row', { id: 'coffee', value: { cups: 1 } }],
      ],
    },
  },
  {
    fixture: 'same-call-at-two-indexes',
    behaviour: 'one call streamed again under another index with the same id is one call',
    expected: { calls: [['append_row', { id: 'water', value: { ml: 250 } }]] },
  },
  {
    fixture: 'parallel-calls-share-index-0',
    behaviour: 'parallel calls streamed under one index are told apart by their ids',
    expected: {
      calls: [
        ['add_numbers', { a: 2, b: 2 }],
        ['get_weather', { location: 'Tokyo', unit: 'celsius' }],
      ],
    },
  },
  {
    fixture: 'parallel-calls-same-index-no-ids',
    behaviour: 'two whole calls to one tool under one index and without ids stay two calls',
    expected: {
      calls: [
        ['web_search', { query: 'Emma Bull' }],
        ['web_search', { query: 'Virginia Woolf' }],
      ],
    },
  },
  {
    fixture: 'three-calls-translated-under-index-0',
    behaviour: 'three calls to one tool with split arguments under index 0 are never concatenated',
    expected: {
      calls: [
        ['add_task', { title: 'Organize the digital photo folder' }],
        ['add_task', { title: 'Try a new recipe for dinner' }],
        ['add_task', { title: 'Take a 20-minute walk without phone' }],
      ],
    },
  },
  {
    fixture: 'tool-call-id-changes-after-first-fragment',
    behaviour: 'a call whose id changes after its first fragment stays one call',
    expected: { calls: [['read_manifest_meta', { id: 'weight' }]] },
  },
  {
    fixture: 'unique-id-on-every-fragment',
    behaviour: 'a fresh id and an empty name on every fragment still make one call',
    expected: { calls: [['get_recent_activity', { days: 7 }]] },
  },
  {
    fixture: 'same-id-on-every-fragment',
    behaviour: 'one id repeated on every fragment (and no index) continues the call',
    expected: { calls: [['append_row', { id: 'water', value: { date: '2026-05-01', ml: 250 } }]] },
  },
  {
    fixture: 'no-index-calls-with-thought-signatures',
    behaviour: 'whole calls without index become one call each',
    expected: {
      calls: [
        ['read_manifest_meta', { id: 'weight' }],
        ['read_manifest_meta', { id: 'sleep' }],
      ],
    },
  },
  {
    fixture: 'tool-name-streamed-in-fragments',
    behaviour: 'a function name streamed in pieces is joined',
    expected: { calls: [['read_manifest_rows', { id: 'weight', limit: 3 }]] },
  },
  {
    fixture: 'tool-name-restated-on-every-chunk',
    behaviour: 'a function name restated on every chunk is not repeated',
    expected: { calls: [['read_manifest', { id: 'mood' }]] },
  },
  {
    fixture: 'arguments-as-growing-snapshots',
    behaviour: 'arguments sent as growing snapshots are replaced, not appended',
    expected: { calls: [['update_row', { id: 'bp', path: '[date="2026-05-01"]', changes: { sys: 121 } }]] },
  },
  {
    fixture: 'arguments-replayed-whole-after-deltas',
    behaviour: 'a whole-text replay of the arguments after the deltas is dropped',
    expected: { calls: [['append_row', { todoText: 'buy groceries' }]] },
  },
  {
    fixture: 'call-ids-with-colons-repeat-per-turn',
    behaviour: 'a provider id of a form strict providers refuse is replaced by ours',
    expected: { calls: [['get_recent_activity', {}]] },
  },
  {
    fixture: 'finish-then-keep-alives-without-done',
    behaviour: 'a stream that finishes but never ends (keep-alives, no [DONE], socket open) completes',
    expected: { text: 'Logged 250 ml.' },
  },
  {
    fixture: 'single-newline-events-held-open',
    behaviour: 'events separated by a single newline on a connection held open are read and complete',
    expected: { text: 'Hi!' },
  },
  {
    fixture: 'reasoning-inline-in-think-tags',
    behaviour: 'reasoning between think tags (a tag split across chunks) never reaches the answer',
    expected: { text: 'Your weight is down 1.2 kg this month.', reasoning: /weight trend/ },
  },
  {
    fixture: 'reasoning-with-only-a-closing-tag',
    behaviour: 'reasoning before a bare closing think tag never reaches the answer',
    expected: { text: 'You slept 7 h 10 min last night.', reasoning: /the user asks about sleep/ },
  },
  {
    fixture: 'reasoning-in-harmony-channels',
    behaviour: "gpt-oss's analysis channel never reaches the answer, nor any harmony control token",
    expected: {
      text: 'You drank 6 glasses today.',
      reasoning: /^The user asks about water today\. Read the water card\.$/,
    },
  },
  {
    fixture: 'reasoning-in-harmony-channels-tokens-dropped',
    behaviour: "gpt-oss's analysis channel with its tokens dropped never reaches the answer",
    expected: {
      text: 'Hello! How can I help you today?',
      reasoning: /^User says hello\. Should respond politely\.$/,
    },
  },
  {
    fixture: 'reasoning-in-think-brackets',
    behaviour: 'reasoning between [THINK] and [/THINK] never reaches the answer',
    expected: { text: 'Your last reading was 118/76.', reasoning: /bp card/ },
  },
  {
    fixture: 'reasoning-in-seed-think-tags',
    behaviour: 'reasoning between <seed:think> tags never reaches the answer',
    expected: { text: 'You walked 8,200 steps.', reasoning: /activity card/ },
  },
  {
    fixture: 'usage-under-vendor-key',
    behaviour: 'usage under a vendor key (x_groq.usage) is read',
    expected: { text: 'Hello there.', usage: { promptTokens: 23, completionTokens: 19, totalTokens: 42 } },
  },
  {
    fixture: 'cumulative-content-snapshots',
    behaviour: 'content sent as snapshots of the whole answer so far is read once',
    expected: { text: 'Your water today: 1.5 l of 2 l. Drink two more glasses before evening.' },
  },
  {
    fixture: 'legacy-function-call-delta',
    behaviour: 'a call in the older functions shape (delta.function_call) is a tool call',
    expected: { calls: [['read_manifest_rows', { id: 'weight', limit: 3 }]] },
  },
  {
    fixture: 'arguments-reserialised-in-closing-chunk',
    behaviour: 'a closing restatement of the call with its arguments serialised anew is not a second call',
    expected: { calls: [['append_row', { id: 'water', value: { ml: 250 } }]] },
  },
  {
    fixture: 'event-stream-labelled-json',
    behaviour: 'an event stream labelled application/json is read as a stream',
    expected: { text: 'Logged it.' },
  },
  {
    fixture: 'thinking-content-parts',
    behaviour: 'reasoning sent as thinking content parts is reasoning; only the text parts are the answer',
    expected: {
      text: 'Your resting pulse fell by 3 bpm.',
      reasoning: /^The user wants their resting pulse trend\.$/,
      usage: { promptTokens: 31, completionTokens: 27, totalTokens: 58 },
    },
  },
  {
    fixture: 'reasoning-details-only',
    behaviour:
      'reasoning given only as reasoning_details is read from its readable items, never the encrypted one',
    expected: {
      calls: [['read_manifest_rows', { id: 'sleep', limit: 7 }]],
      reasoning: /^Sleep data lives in the sleep card\.$/,
    },
  },
  {
    fixture: 'completions-style-text-choices',
    behaviour: 'choices carrying a completions-style text instead of a delta are the answer',
    expected: { text: 'Drink more water.' },
  },
  {
    fixture: 'chunks-repeat-text-in-message-and-number-choices',
    behaviour: 'text given in both delta and message, with a new choice index per chunk, is read once',
    expected: { text: 'Moon, maybe' },
  },
];

/** The fixtures that are buffered JSON replies (served to buffered requests). */
export const BUFFERED_REPLY_CORPUS: ReplyBehaviour[] = [
  {
    fixture: 'one-id-on-parallel-calls-buffered',
    behaviour: 'two calls of a whole reply sharing one id stay two calls',
    expected: {
      calls: [
        ['append_row', { id: 'water', value: { ml: 250 } }],
        ['append_row', { id: 'coffee', value: { cups: 1 } }],
      ],
      usage: { promptTokens: 812, completionTokens: 41, totalTokens: 853 },
    },
  },
  {
    fixture: 'thought-signature-under-vertex-key',
    behaviour: 'a buffered call with a thought signature under another vendor key is read',
    expected: { calls: [['list_manifests', {}]] },
  },
  {
    fixture: 'same-call-id-in-every-round-trip',
    behaviour: 'a buffered call with a short provider id is read',
    expected: { calls: [['get_recent_activity', {}]] },
  },
];

/** Checks a result against what its fixture must assemble to. */
export function expectAssembled(result: GatewayResult, expected: Expected): void {
  if (expected.text !== undefined) expect(result.text).toBe(expected.text);
  if (expected.calls !== undefined) {
    expect(result.toolCalls.map((c) => [c.name, c.parsedArguments])).toEqual(expected.calls);
    for (const call of result.toolCalls) {
      expect(call.id).toMatch(OUR_ID);
      expect(JSON.parse(call.arguments)).toEqual(call.parsedArguments);
    }
  } else expect(result.toolCalls).toEqual([]);
  if (expected.usage) expect(result.usage).toMatchObject(expected.usage);
  if (expected.reasoning) expect(result.reasoning).toMatch(expected.reasoning);
}
