// Tool calls in a model's own call markup, passed on as answer text by servers that run the model
// without the parser for it: Qwen3-Coder's <function=…><parameter=…> blocks, the opening
// <tool_call> now and then left out (https://github.com/ollama/ollama/issues/16686,
// https://github.com/lablup/mlxcel/issues/204); GLM's <arg_key>/<arg_value> pairs, several calls
// in a row (https://github.com/lmstudio-ai/lmstudio-bug-tracker/issues/1528); Mistral's
// [TOOL_CALLS]name[ARGS]{…} (https://github.com/mistralai/mistral-vibe/issues/594) and
// [TOOL_CALLS]name{…} (https://github.com/ollama/ollama/issues/16932); Kimi K2's tool-call
// section (https://github.com/MoonshotAI/Kimi-K2/issues/26); DeepSeek's tool-call tokens
// (https://github.com/google/adk-python/pull/5654). The person read the markup as the answer and
// the tool never ran. Each is read as the call to the offered tool, streamed in pieces or whole;
// markup naming a tool that was not offered stays text.
import { describe, expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import type { GatewayResult, ToolDefinition } from '../../src/chat/gateway/types.js';
import { configFor, userSays } from './support.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

const tools: ToolDefinition[] = [
  {
    type: 'function',
    function: {
      name: 'read_manifest_rows',
      parameters: {
        type: 'object',
        properties: { id: { type: 'string' }, limit: { type: 'integer' } },
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'read_manifest',
      parameters: { type: 'object', properties: { id: { type: 'string' } } },
    },
  },
  {
    type: 'function',
    function: {
      name: 'append_row',
      parameters: {
        type: 'object',
        properties: { id: { type: 'string' }, row: { type: 'object' } },
      },
    },
  },
  { type: 'function', function: { name: 'get_recent_activity', parameters: { type: 'object' } } },
];

const calls = (r: GatewayResult) => r.toolCalls.map((c) => [c.name, c.parsedArguments]);

/** `text` cut every `size` characters, one stream event each (markup split anywhere). */
function pieces(text: string, size = 7): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** The answer `text`, streamed in small pieces and then sent whole: both results. */
async function bothWays(text: string): Promise<GatewayResult[]> {
  gw.script(
    { kind: 'reply', chunks: pieces(text), finishReason: 'stop' },
    { kind: 'reply', text, finishReason: 'stop' },
  );
  const streamed = await callGateway(configFor(gw.url), { messages: userSays('x'), tools, stream: true });
  const whole = await callGateway(configFor(gw.url), { messages: userSays('x'), tools, stream: false });
  return [streamed, whole];
}

describe("a model's own call markup left in the answer", () => {
  it('Qwen3-Coder: <function=…> with <parameter=…> values, its opening <tool_call> left out, after a sentence', async () => {
    const text =
      "I'll look at your water card.\n\n<function=read_manifest_rows>\n<parameter=id>\nwater\n</parameter>\n<parameter=limit>\n3\n</parameter>\n</function>\n</tool_call>";
    for (const r of await bothWays(text)) {
      expect(calls(r)).toEqual([['read_manifest_rows', { id: 'water', limit: 3 }]]);
      expect(r.text).toBe("I'll look at your water card.");
      expect(r.finishReason).toBe('tool_calls');
    }
  });

  it('Qwen3-Coder: two wrapped calls, an object value written as JSON', async () => {
    const text =
      '<tool_call>\n<function=append_row>\n<parameter=id>\nwater\n</parameter>\n<parameter=row>\n{"ml": 250}\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=read_manifest>\n<parameter=id>\nwater\n</parameter>\n</function>\n</tool_call>';
    for (const r of await bothWays(text)) {
      expect(calls(r)).toEqual([
        ['append_row', { id: 'water', row: { ml: 250 } }],
        ['read_manifest', { id: 'water' }],
      ]);
      expect(r.text).toBe('');
    }
  });

  it("Llama 3.1's <function=name>{…}</function>: the JSON in the block is the arguments", async () => {
    for (const r of await bothWays('<function=read_manifest_rows>{"id": "steps", "limit": 7}</function>')) {
      expect(calls(r)).toEqual([['read_manifest_rows', { id: 'steps', limit: 7 }]]);
      expect(r.text).toBe('');
    }
  });

  it("Llama's inline <function=name={…}</function>, without the closing '>'", async () => {
    for (const r of await bothWays('<function=read_manifest={"id": "sleep"}</function>')) {
      expect(calls(r)).toEqual([['read_manifest', { id: 'sleep' }]]);
      expect(r.text).toBe('');
    }
  });

  it('GLM: <tool_call>name<arg_key>…</arg_key><arg_value>…</arg_value>, several in a row and one without arguments', async () => {
    const text =
      '<tool_call>read_manifest<arg_key>id</arg_key><arg_value>sleep</arg_value></tool_call>\n<tool_call>read_manifest_rows\n<arg_key>id</arg_key>\n<arg_value>mood</arg_value>\n<arg_key>limit</arg_key>\n<arg_value>5</arg_value>\n</tool_call>\n<tool_call>get_recent_activity</tool_call>';
    for (const r of await bothWays(text)) {
      expect(calls(r)).toEqual([
        ['read_manifest', { id: 'sleep' }],
        ['read_manifest_rows', { id: 'mood', limit: 5 }],
        ['get_recent_activity', {}],
      ]);
      expect(r.text).toBe('');
    }
  });

  it('Mistral: [TOOL_CALLS]name[ARGS]{…}, and [TOOL_CALLS]name{…}', async () => {
    for (const r of await bothWays('[TOOL_CALLS]append_row[ARGS]{ "id": "water", "row": {"ml": 250}}')) {
      expect(calls(r)).toEqual([['append_row', { id: 'water', row: { ml: 250 } }]]);
      expect(r.text).toBe('');
    }
    for (const r of await bothWays(
      'Checking both.[TOOL_CALLS]read_manifest{"id": "mood"}[TOOL_CALLS]read_manifest[ARGS]{"id": "sleep"}',
    )) {
      expect(calls(r)).toEqual([
        ['read_manifest', { id: 'mood' }],
        ['read_manifest', { id: 'sleep' }],
      ]);
      expect(r.text).toBe('Checking both.');
    }
  });

  it('Kimi K2: the tool-call section with functions.name:N ids, arguments JSON or JSON text', async () => {
    const text =
      '<|tool_calls_section_begin|><|tool_call_begin|>functions.read_manifest:0<|tool_call_argument_begin|>{"id": "sleep"}<|tool_call_end|><|tool_call_begin|>functions.read_manifest_rows:1<|tool_call_argument_begin|>"{\\"id\\": \\"water\\", \\"limit\\": 2}"<|tool_call_end|><|tool_calls_section_end|>';
    for (const r of await bothWays(text)) {
      expect(calls(r)).toEqual([
        ['read_manifest', { id: 'sleep' }],
        ['read_manifest_rows', { id: 'water', limit: 2 }],
      ]);
      expect(r.text).toBe('');
    }
  });

  it('DeepSeek: the tool-call tokens, arguments in a json fence or right after the name', async () => {
    const v3 =
      '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>read_manifest\n```json\n{"id":"weight"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>';
    for (const r of await bothWays(v3)) {
      expect(calls(r)).toEqual([['read_manifest', { id: 'weight' }]]);
      expect(r.text).toBe('');
    }
    const v31 =
      'Let me check.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>read_manifest_rows<｜tool▁sep｜>{"id": "weight", "limit": 1}<｜tool▁call▁end｜><｜tool▁calls▁end｜>';
    for (const r of await bothWays(v31)) {
      expect(calls(r)).toEqual([['read_manifest_rows', { id: 'weight', limit: 1 }]]);
      expect(r.text).toBe('Let me check.');
    }
  });

  it("Llama 4's <|python_start|>{name, parameters}<|python_end|>", async () => {
    const text = '<|python_start|>{"name": "read_manifest", "parameters": {"id": "sleep"}}<|python_end|>';
    for (const r of await bothWays(text)) {
      expect(calls(r)).toEqual([['read_manifest', { id: 'sleep' }]]);
      expect(r.text).toBe('');
    }
  });

  it("Llama 3.2's pythonic list of calls, alone or after a sentence, Python literals as values", async () => {
    for (const r of await bothWays(`[read_manifest(id="water"), read_manifest_rows(id='steps', limit=7)]`)) {
      expect(calls(r)).toEqual([
        ['read_manifest', { id: 'water' }],
        ['read_manifest_rows', { id: 'steps', limit: 7 }],
      ]);
      expect(r.text).toBe('');
    }
    for (const r of await bothWays(
      `To log it I will add a row. [append_row(id="water", row={'ml': 250, 'cold': True, 'note': None})]`,
    )) {
      expect(calls(r)).toEqual([['append_row', { id: 'water', row: { ml: 250, cold: true, note: null } }]]);
      expect(r.text).toBe('To log it I will add a row.');
    }
  });

  it('Granite 3 and Phi-4-mini: <|tool_call|>[…], closed or not by <|/tool_call|>', async () => {
    for (const text of [
      '<|tool_call|>[{"name": "read_manifest", "arguments": {"id": "mood"}}]',
      '<|tool_call|>[{"name": "read_manifest", "arguments": {"id": "mood"}}]<|/tool_call|>',
    ]) {
      for (const r of await bothWays(text)) {
        expect(calls(r)).toEqual([['read_manifest', { id: 'mood' }]]);
        expect(r.text).toBe('');
      }
    }
  });

  it('MiniMax M2 and DeepSeek V3.2: <invoke name=…> with <parameter name=…> values', async () => {
    const minimax =
      'Checking.\n<minimax:tool_call>\n<invoke name="read_manifest_rows">\n<parameter name="id">steps</parameter>\n<parameter name="limit">7</parameter>\n</invoke>\n</minimax:tool_call>';
    for (const r of await bothWays(minimax)) {
      expect(calls(r)).toEqual([['read_manifest_rows', { id: 'steps', limit: 7 }]]);
      expect(r.text).toBe('Checking.');
    }
    const dsml =
      '<｜DSML｜function_calls>\n<｜DSML｜invoke name="read_manifest">\n<｜DSML｜parameter name="id" string="true">sleep</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>';
    for (const r of await bothWays(dsml)) {
      expect(calls(r)).toEqual([['read_manifest', { id: 'sleep' }]]);
      expect(r.text).toBe('');
    }
  });

  // Qwen models write values and whole calls in Python's literal syntax now and then
  // (https://github.com/waybarrios/vllm-mlx/issues/63, https://github.com/NousResearch/atropos/pull/479)
  it("Python's literal syntax: a <parameter=…> dict, and a <tool_call> body in single quotes", async () => {
    const qwen =
      "<function=append_row>\n<parameter=id>\nwater\n</parameter>\n<parameter=row>\n{'ml': 250, 'cold': True}\n</parameter>\n</function>";
    for (const r of await bothWays(qwen)) {
      expect(calls(r)).toEqual([['append_row', { id: 'water', row: { ml: 250, cold: true } }]]);
    }
    const hermes = "<tool_call>{'name': 'read_manifest', 'arguments': {'id': \"mood's\"}}</tool_call>";
    for (const r of await bothWays(hermes)) {
      expect(calls(r)).toEqual([['read_manifest', { id: "mood's" }]]);
      expect(r.text).toBe('');
    }
  });

  it('markup naming a tool that was not offered stays the answer, whole', async () => {
    const answers = [
      'Write it as <function=delete_everything>\n<parameter=all>\ntrue\n</parameter>\n</function> in the template.',
      '[TOOL_CALLS]wipe_disk[ARGS]{"now": true}',
      '<tool_call>wipe_disk<arg_key>now</arg_key><arg_value>true</arg_value></tool_call>',
      'Call it like [wipe_disk(now=True)]',
      'See [read_manifest(id="water")] and more text after it.',
    ];
    for (const text of answers) {
      gw.script({ kind: 'reply', text, finishReason: 'stop' });
      const r = await callGateway(configFor(gw.url), { messages: userSays('x'), tools });
      expect(r.toolCalls).toEqual([]);
      expect(r.text).toBe(text);
    }
  });
});

// Kimi's call id where the tool's name goes, in a structured call or its own markup, its
// separators sometimes lost (https://github.com/sgl-project/sglang/pull/21377: "functionsexec5")
describe("Kimi's call id as the tool's name", () => {
  it('functions.NAME:N and functionsNAMEN name the offered tool, structured or in the section', async () => {
    gw.script(
      {
        kind: 'reply',
        toolCalls: [
          { id: 'functions.read_manifest:0', name: 'functions.read_manifest:0', arguments: { id: 'sleep' } },
          {
            id: 'functionsread_manifest_rows1',
            name: 'functionsread_manifest_rows1',
            arguments: { id: 'mood' },
          },
        ],
      },
      {
        kind: 'reply',
        text: '<|tool_calls_section_begin|><|tool_call_begin|>functionsread_manifest5<|tool_call_argument_begin|>{"id": "water"}<|tool_call_end|><|tool_calls_section_end|>',
        finishReason: 'stop',
      },
    );
    const structured = await callGateway(configFor(gw.url), { messages: userSays('x'), tools, stream: true });
    expect(calls(structured)).toEqual([
      ['read_manifest', { id: 'sleep' }],
      ['read_manifest_rows', { id: 'mood' }],
    ]);
    const written = await callGateway(configFor(gw.url), { messages: userSays('x'), tools, stream: true });
    expect(calls(written)).toEqual([['read_manifest', { id: 'water' }]]);
    expect(written.text).toBe('');
  });
});
