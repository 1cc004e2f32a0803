/**
 * Tool calls in a model's own call markup, left in the answer text by a server that runs the
 * model without the parser for it (llama.cpp, Ollama, LM Studio, MLX servers, vLLM or SGLang
 * started with another `--tool-call-parser`, a relay that passes the text on). Each family writes
 * its calls differently, and none of these is JSON with a name inside:
 * - Qwen3-Coder (and Qwen3.5): `<tool_call><function=NAME><parameter=KEY>value</parameter>…
 *   </function></tool_call>`, the opening `<tool_call>` now and then left out; Llama 3.1's
 *   `<function=NAME>{…}</function>` with the arguments as JSON (also without the `>`:
 *   `<function=NAME={…}</function>`, as Llama 3.3 writes it inline);
 * - GLM 4.5 and later: `<tool_call>NAME<arg_key>KEY</arg_key><arg_value>value</arg_value>…</tool_call>`;
 * - Mistral's newer templates (Mistral Small 3.2, Magistral, Devstral): `[TOOL_CALLS]NAME[ARGS]{…}`,
 *   or `[TOOL_CALLS]NAME{…}` as some servers render it;
 * - Kimi K2: `<|tool_calls_section_begin|><|tool_call_begin|>functions.NAME:0
 *   <|tool_call_argument_begin|>{…}<|tool_call_end|><|tool_calls_section_end|>`;
 * - DeepSeek V3 and R1: `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME
 *   ```json {…} ```<｜tool▁call▁end｜><｜tool▁calls▁end｜>` (or `NAME<｜tool▁sep｜>{…}`);
 * - Llama 4: `<|python_start|>{"name": NAME, "parameters": {…}}<|python_end|>`;
 * - MiniMax M2 and DeepSeek V3.2: `<minimax:tool_call><invoke name="NAME"><parameter
 *   name="KEY">value</parameter></invoke></minimax:tool_call>`, DeepSeek's tags written
 *   `<｜DSML｜invoke …>` inside `<｜DSML｜function_calls>`;
 * - Gemma 4: `<|tool_call>call:NAME{key:<|"|>text<|"|>,n:7}<tool_call|>` (gemma-calls.ts);
 * - Llama 3.2 and 4's pythonic list, `[NAME(key="value", …)]` (pythonic-calls.ts).
 * A value written between tags is text; the tool's schema reads a number, a flag, an object or a
 * list out of it later (scalar-arguments.ts, stringified-values.ts), as for any call.
 */
import { valueThenProse } from './call-then-prose.js';
import { gemmaCalls } from './gemma-calls.js';
import { readPythonicCalls } from './pythonic-calls.js';
import type { TextToolCall, TextToolCalls } from './text-tool-calls.js';
import { readFirstJsonValue } from './tool-arguments.js';

/** The offered tool a written name means, or undefined (see text-tool-calls.ts). */
export type NameReader = (name: string) => string | undefined;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A value written between tags: one line break on each side belongs to the markup. */
function tagValue(raw: string): string {
  return raw.replace(/^\r?\n/, '').replace(/\r?\n$/, '');
}

/**
 * An arguments object written as JSON text (maybe in a code fence, maybe as a JSON string that
 * holds the object), or undefined when it is not one. Empty text is no arguments.
 */
function jsonArguments(text: string): Record<string, unknown> | undefined {
  const bare = text
    .trim()
    .replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/, '$1')
    .trim();
  if (bare === '') return {};
  const read = readFirstJsonValue(bare);
  if (read?.rest.trim() !== '') return undefined;
  if (typeof read.value === 'string') return jsonArguments(read.value);
  return isObject(read.value) ? read.value : undefined;
}

/** Calls found, with the text around them; undefined unless every call names an offered tool. */
function collect(
  text: string,
  pattern: RegExp,
  callOf: (m: RegExpMatchArray) => TextToolCall | undefined,
): TextToolCalls | undefined {
  const calls: TextToolCall[] = [];
  for (const m of text.matchAll(pattern)) {
    const call = callOf(m);
    if (!call) return undefined;
    calls.push(call);
  }
  return calls.length > 0 ? { calls, rest: text.replace(pattern, '') } : undefined;
}

const QWEN_FUNCTION =
  /(?:<tool_call>\s*)?<function=([^>\n]+)>([\s\S]*?)(?:<\/function>|$)(?:\s*<\/tool_call>)?/g;
const QWEN_PARAMETER = /<parameter=([^>\n]+)>([\s\S]*?)(?:<\/parameter>|(?=<parameter=)|$)/g;

/** Qwen3-Coder's `<function=NAME>` blocks (see above). */
function qwenCoderCalls(written: string, nameOf: NameReader): TextToolCalls | undefined {
  if (!written.includes('<function=')) return undefined;
  // Llama's inline dialect leaves out the `>`: `<function=NAME={…}</function>`, `<function=NAME{…}`
  const text = written.replace(/<function=([A-Za-z_][\w.:-]*)\s*=?\s*(?=\{)/g, '<function=$1>');
  return collect(text, QWEN_FUNCTION, (m) => {
    const name = nameOf(m[1].trim());
    if (name === undefined) return undefined;
    // Llama 3.1's own form puts JSON arguments in the block: `<function=NAME>{…}</function>`
    if (!m[2].includes('<parameter=')) {
      const json = jsonArguments(m[2]);
      return json && { name, arguments: json };
    }
    const args: Record<string, unknown> = {};
    for (const p of m[2].matchAll(QWEN_PARAMETER)) args[p[1].trim()] = tagValue(p[2]);
    return { name, arguments: args };
  });
}

const GLM_CALL =
  /<tool_call>\s*([^<\s{[]+)\s*((?:<arg_key>[\s\S]*?<\/arg_key>\s*<arg_value>[\s\S]*?<\/arg_value>\s*)*)<\/tool_call>/g;
const GLM_ARGUMENT = /<arg_key>([\s\S]*?)<\/arg_key>\s*<arg_value>([\s\S]*?)<\/arg_value>/g;

/** GLM's `<tool_call>NAME<arg_key>…` blocks (see above). */
function glmCalls(text: string, nameOf: NameReader): TextToolCalls | undefined {
  return collect(text, GLM_CALL, (m) => {
    const name = nameOf(m[1].trim());
    if (name === undefined) return undefined;
    const args: Record<string, unknown> = {};
    for (const a of m[2].matchAll(GLM_ARGUMENT)) args[a[1].trim()] = tagValue(a[2]);
    return { name, arguments: args };
  });
}

/** Mistral's `[TOOL_CALLS]NAME[ARGS]{…}` calls, one marker each (see above). */
function mistralNamedCalls(text: string, nameOf: NameReader): TextToolCalls | undefined {
  const at = text.indexOf('[TOOL_CALLS]');
  if (at < 0) return undefined;
  const calls: TextToolCall[] = [];
  const prose: string[] = [];
  for (const piece of text.slice(at).split('[TOOL_CALLS]').slice(1)) {
    const m = /^\s*([\w.:-]+)\s*(?:\[CALL_ID\]\s*\w+\s*)?(?:\[ARGS\])?\s*(?=[{"`])/.exec(piece);
    const name = m ? nameOf(m[1]) : undefined;
    const args = m ? argumentsThenProse(piece.slice(m[0].length)) : undefined;
    if (name === undefined || args === undefined) return undefined;
    calls.push({ name, arguments: args.arguments });
    if (args.prose !== '') prose.push(args.prose);
  }
  const rest = [text.slice(0, at).trim(), ...prose].filter((t) => t !== '').join('\n\n');
  return calls.length > 0 ? { calls, rest } : undefined;
}

/** A call's JSON arguments, and the prose the model wrote after them (call-then-prose.ts). */
function argumentsThenProse(text: string): { arguments: Record<string, unknown>; prose: string } | undefined {
  const whole = jsonArguments(text);
  if (whole !== undefined) return { arguments: whole, prose: '' };
  const read = valueThenProse(text);
  return read && isObject(read.value) ? { arguments: read.value, prose: read.prose } : undefined;
}

/** `functions.NAME:0` (Kimi's call id) as the name it calls. */
function kimiName(id: string): string {
  return id.trim().replace(/:\d+$/, '');
}

const KIMI_CALL =
  /<\|tool_call_begin\|>\s*([^<]+?)\s*<\|tool_call_argument_begin\|>([\s\S]*?)(?:<\|tool_call_end\|>|(?=<\|tool_call_begin\|>|<\|tool_calls?_section_end\|>)|$)/g;
const KIMI_SECTION = /<\|tool_calls?_section_(?:begin|end)\|>/g;

/** Kimi K2's tool-call section (see above). */
function kimiCalls(text: string, nameOf: NameReader): TextToolCalls | undefined {
  if (!text.includes('<|tool_call_begin|>')) return undefined;
  const found = collect(text, KIMI_CALL, (m) => {
    const name = nameOf(kimiName(m[1]));
    const args = jsonArguments(m[2]);
    return name === undefined || args === undefined ? undefined : { name, arguments: args };
  });
  return found && { calls: found.calls, rest: found.rest.replace(KIMI_SECTION, '') };
}

/** DeepSeek writes its tokens with full-width bars and ▁ for spaces; some servers with ASCII. */
const DS = (word: string) => `<[|｜]${word.replace(/ /g, '[▁_]')}[|｜]>`;
const DEEPSEEK_CALL = new RegExp(
  `${DS('tool call begin')}\\s*(?:function\\s*${DS('tool sep')}\\s*([\\w.:-]+)|([\\w.:-]+)\\s*${DS('tool sep')})([\\s\\S]*?)(?:${DS('tool call end')}|$)`,
  'g',
);
const DEEPSEEK_SECTION = new RegExp(`${DS('tool calls begin')}|${DS('tool calls end')}`, 'g');

/** DeepSeek's tool-call tokens (see above). */
function deepSeekCalls(text: string, nameOf: NameReader): TextToolCalls | undefined {
  if (!/<[|｜]tool[▁_]call[▁_]begin[|｜]>/.test(text)) return undefined;
  const found = collect(text, DEEPSEEK_CALL, (m) => {
    const name = nameOf((m[1] ?? m[2]).trim());
    const args = jsonArguments(m[3]);
    return name === undefined || args === undefined ? undefined : { name, arguments: args };
  });
  return found && { calls: found.calls, rest: found.rest.replace(DEEPSEEK_SECTION, '') };
}

/** The tag prefix DeepSeek V3.2 writes (`<｜DSML｜invoke …>`), none for MiniMax. */
const DSML = '(?:[|｜]DSML[|｜])?';
const INVOKE = new RegExp(`<${DSML}invoke\\s+name="([^"]+)"\\s*>([\\s\\S]*?)(?:</${DSML}invoke>|$)`, 'g');
const INVOKE_PARAMETER = new RegExp(
  `<${DSML}parameter\\s+name="([^"]+)"[^>]*>([\\s\\S]*?)</${DSML}parameter>`,
  'g',
);
const INVOKE_WRAPPERS = new RegExp(`</?(?:minimax:tool_call|${DSML}function_calls)>`, 'g');

/** MiniMax M2's and DeepSeek V3.2's `<invoke name=…><parameter name=…>` blocks (see above). */
function invokeCalls(text: string, nameOf: NameReader): TextToolCalls | undefined {
  if (!/<(?:[|｜]DSML[|｜])?invoke\s+name="/.test(text)) return undefined;
  const found = collect(text, INVOKE, (m) => {
    const name = nameOf(m[1].trim());
    if (name === undefined) return undefined;
    const args: Record<string, unknown> = {};
    for (const p of m[2].matchAll(INVOKE_PARAMETER)) args[p[1].trim()] = tagValue(p[2]);
    return { name, arguments: args };
  });
  return found && { calls: found.calls, rest: found.rest.replace(INVOKE_WRAPPERS, '') };
}

const LLAMA4_CALL = /<\|python_start\|>([\s\S]*?)(?:<\|python_end\|>|$)/g;

/** Llama 4's `<|python_start|>{"name": …, "parameters": {…}}<|python_end|>` (see above). */
function llama4Calls(text: string, nameOf: NameReader): TextToolCalls | undefined {
  if (!text.includes('<|python_start|>')) return undefined;
  return collect(text, LLAMA4_CALL, (m) => {
    const read = readFirstJsonValue(m[1].trim());
    if (read?.rest.trim() !== '' || !isObject(read.value) || typeof read.value.name !== 'string')
      return undefined;
    const name = nameOf(read.value.name);
    const args = read.value.parameters ?? read.value.arguments ?? {};
    return name !== undefined && isObject(args) ? { name, arguments: args } : undefined;
  });
}

/**
 * The calls `text` writes in one of the markups above, naming offered tools (`nameOf` says which
 * tool a written name means), with the text left once they are taken out; undefined when it
 * writes none, or when anything written as a call is not a call to an offered tool (then it all
 * stays text).
 */
export function readNativeCallMarkup(text: string, nameOf: NameReader): TextToolCalls | undefined {
  for (const reader of [
    kimiCalls,
    deepSeekCalls,
    qwenCoderCalls,
    mistralNamedCalls,
    gemmaCalls,
    llama4Calls,
    readPythonicCalls,
    invokeCalls,
  ]) {
    const found = reader(text, nameOf);
    if (found) return { calls: found.calls, rest: found.rest.trim() };
  }
  if (!text.includes('<arg_key>') && !/<tool_call>\s*[^<\s{[]+\s*<\/tool_call>/.test(text)) return undefined;
  const found = glmCalls(text, nameOf);
  return found && { calls: found.calls, rest: found.rest.trim() };
}
