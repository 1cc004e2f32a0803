/**
 * Tool calls the model wrote as answer text. When a server runs a model without the parser that
 * turns its tool-call tokens into `tool_calls` (vLLM started without a tool parser, Ollama or
 * MLX servers with some templates), the call arrives as text: `<tool_call>{...}</tool_call>`
 * blocks (Hermes, Qwen), `[TOOL_CALLS][...]` (Mistral), `<|python_tag|>{...}` (Llama 3.1),
 * `<|tool_call|>[...]` (Granite 3, Phi-4-mini), gpt-oss's
 * harmony commentary addressed to a tool (`<|channel|>commentary to=functions.x …<|message|>{...}`), or
 * the bare JSON object `{"name": ..., "arguments": {...}}` as the whole answer, or a model's own
 * call markup (native-call-markup.ts). Shown as text, the
 * person reads JSON and the tool never runs. Such text is read as calls only when every call in
 * it names a tool we offered, so an answer that merely talks about JSON stays an answer.
 * Names are matched as offered, or after dropping a namespace the model put in front
 * (`functions.read_manifest`, as models trained on another agent's transcripts write them), or
 * read out of Kimi's call id (`functions.read_manifest:0`, `functionsread_manifest0`). A tagged
 * call whose closing tag comes before its last braces has them closed for it (unclosed-call.ts).
 */
import { valueThenProse } from './call-then-prose.js';
import { MISTRAL_CALLS_END, repairedCallList } from './mistral-call-list.js';
import { readNativeCallMarkup } from './native-call-markup.js';
import { pythonLiteralAsJson } from './python-literal.js';
import { readFirstJsonValue } from './tool-arguments.js';
import { closeUnclosedBrackets } from './unclosed-call.js';

/** One call found in text. */
export interface TextToolCall {
  name: string;
  /** The arguments object (`{}` when the call gave none). */
  arguments: Record<string, unknown>;
}

/** What was found: the calls, and the text that is left once they are taken out. */
export interface TextToolCalls {
  calls: TextToolCall[];
  rest: string;
}

const PREFIX = /^(?:functions?|tools?|default_api)[.:]/;

/**
 * The offered tool a called name means: the name itself, else the name without a namespace in
 * front (`functions.`, `default_api:`) or a special-token tail (`<|channel|>...`), else the name
 * inside Kimi's call id (`functions.NAME:0`, its separators sometimes lost: `functionsNAME0`),
 * else the one offered tool the name spells in other letter case or word separators
 * (`Read_Rows`, `readRows`, `read-rows` for `read_rows`: models write names so now and then).
 * Undefined when none is offered, or when several would fit.
 */
export function offeredToolName(name: string, offered: ReadonlySet<string>): string | undefined {
  if (offered.has(name)) return name;
  const bare = name.split('<|')[0].trim().replace(PREFIX, '');
  if (offered.has(bare)) return bare;
  // Kimi's call id written where the name goes: `functions.NAME:0`, or run together as
  // `functionsNAME0` / `call_functionsNAME2` when its separators are lost
  const kimi = /^(?:call_)?functions\.?(.+?)(:?\d*)$/s.exec(name.split('<|')[0].trim());
  const fromKimi = kimi
    ? [kimi[1], kimi[1] + kimi[2].replace(':', '')].find((n) => offered.has(n))
    : undefined;
  return fromKimi ?? spelledOtherwise(bare, offered);
}

/** A name without letter case or word separators (`_`, `-`, `.`, spaces). */
function folded(name: string): string {
  return name.toLowerCase().replace(/[\s_.-]+/g, '');
}

/** The one offered tool `name` spells in other case or separators; undefined for none or several. */
function spelledOtherwise(name: string, offered: ReadonlySet<string>): string | undefined {
  const key = folded(name);
  if (key === '') return undefined;
  const fits = [...offered].filter((o) => folded(o) === key);
  return fits.length === 1 ? fits[0] : undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** One `{name, arguments | parameters}` value as a call, or undefined when it is not one. */
function asCall(value: unknown, offered: ReadonlySet<string>): TextToolCall | undefined {
  if (!isObject(value) || typeof value.name !== 'string') return undefined;
  const name = offeredToolName(value.name, offered);
  if (name === undefined) return undefined;
  let args: unknown = value.arguments ?? value.parameters ?? {};
  if (typeof args === 'string') {
    const read = args.trim() === '' ? { value: {}, rest: '' } : readFirstJsonValue(args);
    if (read?.rest.trim() !== '') return undefined;
    args = read.value;
  }
  return isObject(args) ? { name, arguments: args } : undefined;
}

/** Every value of `value` (one call or a list of calls) as calls, or undefined unless all are. */
function asCalls(value: unknown, offered: ReadonlySet<string>): TextToolCall[] | undefined {
  const items = Array.isArray(value) ? value : [value];
  if (items.length === 0) return undefined;
  const calls = items.map((v) => asCall(v, offered));
  return calls.every((c) => c !== undefined) ? (calls as TextToolCall[]) : undefined;
}

/** Reads one or more JSON values following each other (whitespace between), all calls. */
function callsIn(text: string, offered: ReadonlySet<string>): TextToolCall[] | undefined {
  return jsonCallsIn(text, offered) ?? pythonCallsIn(text, offered);
}

/**
 * The same calls written in Python's literal syntax (`{'name': 'read_manifest', 'arguments':
 * {'id': 'x'}}`, as Qwen models write them now and then), read when they are not JSON.
 */
function pythonCallsIn(text: string, offered: ReadonlySet<string>): TextToolCall[] | undefined {
  const json = pythonLiteralAsJson(text);
  return json === undefined ? undefined : jsonCallsIn(json, offered);
}

function jsonCallsIn(text: string, offered: ReadonlySet<string>): TextToolCall[] | undefined {
  const calls: TextToolCall[] = [];
  let rest = text.trim();
  while (rest !== '') {
    const read = readFirstJsonValue(rest);
    if (!read) return undefined;
    const found = asCalls(read.value, offered);
    if (!found) return undefined;
    calls.push(...found);
    rest = read.rest.trim().replace(/^[,;]\s*/, '');
  }
  return calls.length > 0 ? calls : undefined;
}

const TAGGED = /<tool_call>([\s\S]*?)(?:<\/tool_call>|$)/g;

/**
 * The calls of a tagged block its closing tag ends while its braces do not (unclosed-call.ts),
 * or undefined. A block without its closing tag may have been cut off and is not guessed at.
 */
function closedCallsIn(block: RegExpMatchArray, offered: ReadonlySet<string>): TextToolCall[] | undefined {
  if (!block[0].endsWith('</tool_call>')) return undefined;
  const closed = closeUnclosedBrackets(block[1]);
  return closed === undefined ? undefined : callsIn(closed, offered);
}

/**
 * gpt-oss's harmony call left in the text by a server without its parser: a commentary message
 * addressed to the tool, `<|start|>assistant<|channel|>commentary to=functions.NAME
 * <|constrain|>json<|message|>{...}<|call|>`.
 */
const HARMONY_CALL =
  /(?:<\|start\|>assistant)?<\|channel\|>commentary\s+to=([^\s<]+)\s*(?:<\|constrain\|>\s*[\w-]+\s*)?<\|message\|>/g;

/** The harmony calls in `text` (see HARMONY_CALL), or undefined when any is not a call to an offered tool. */
function harmonyCalls(text: string, offered: ReadonlySet<string>): TextToolCalls | undefined {
  const calls: TextToolCall[] = [];
  let rest = '';
  let from = 0;
  for (const m of text.matchAll(HARMONY_CALL)) {
    const start = m.index ?? 0;
    if (start < from) continue;
    const after = start + m[0].length;
    const read = readFirstJsonValue(text.slice(after));
    const call = read ? asCall({ name: m[1], arguments: read.value }, offered) : undefined;
    if (!read || !call) return undefined;
    calls.push(call);
    rest += text.slice(from, start);
    from = text.length - read.rest.length;
    if (text.startsWith('<|call|>', from)) from += '<|call|>'.length;
  }
  rest += text.slice(from);
  return calls.length > 0
    ? { calls, rest: rest.replace(/<\|(?:start|end|return|call)\|>(?:assistant)?/g, '').trim() }
    : undefined;
}
/**
 * Tokens a model writes before its calls: Mistral's, Llama 3.1's, and `<|tool_call|>` of Granite 3
 * and Phi-4-mini (which may close the list with `<|/tool_call|>`).
 */
const MARKERS = ['[TOOL_CALLS]', '<|python_tag|>', '<|tool_call|>'];
/** Closing tokens after such calls. */
const MARKER_ENDS = /<\|\/tool_call\|>|<\|eom_id\|>|\[\/TOOL_CALLS\]/g;

/**
 * The calls after `marker` at `at`; for Mistral's list also when it is written not quite as JSON
 * but plainly meant (mistral-call-list.ts).
 */
function markedCalls(
  text: string,
  at: number,
  marker: string,
  offered: ReadonlySet<string>,
): TextToolCalls | undefined {
  const before = text.slice(0, at).trim();
  const after = text.slice(at + marker.length);
  const calls = callsIn(after.replace(MARKER_ENDS, ' '), offered);
  if (calls || marker !== '[TOOL_CALLS]') return calls && { calls, rest: before };
  const body = after.trimEnd();
  const closed = body.endsWith(MISTRAL_CALLS_END);
  const list = repairedCallList(closed ? body.slice(0, -MISTRAL_CALLS_END.length) : body, closed);
  const repaired = list === undefined ? undefined : callsIn(list, offered);
  if (repaired) return { calls: repaired, rest: before };
  // the list, then prose the model went on to write (call-then-prose.ts)
  const read = valueThenProse(after.replace(MARKER_ENDS, ' '));
  const listed = read && read.prose !== '' ? asCalls(read.value, offered) : undefined;
  return listed && { calls: listed, rest: [before, read?.prose].filter((t) => t).join('\n\n') };
}

/**
 * Finds tool calls written as text in `text`, naming only tools in `offered`. Returns undefined
 * when the text holds none (or any part of what looks like one is not a call to an offered
 * tool: then it all stays text).
 */
export function readTextToolCalls(text: string, offered: ReadonlySet<string>): TextToolCalls | undefined {
  if (offered.size === 0 || text.trim() === '') return undefined;
  if (text.includes('<|channel|>commentary')) return harmonyCalls(text, offered);
  // a model's own call markup (Qwen3-Coder, GLM, Mistral's [ARGS], Kimi, DeepSeek)
  const native = readNativeCallMarkup(text, (name) => offeredToolName(name, offered));
  if (native) return native;
  if (text.includes('<tool_call>')) {
    const calls: TextToolCall[] = [];
    for (const m of text.matchAll(TAGGED)) {
      const found = callsIn(m[1], offered) ?? closedCallsIn(m, offered);
      if (!found) return undefined;
      calls.push(...found);
    }
    return { calls, rest: text.replace(TAGGED, '').trim() };
  }
  for (const marker of MARKERS) {
    const at = text.indexOf(marker);
    if (at < 0) continue;
    return markedCalls(text, at, marker, offered);
  }
  // the whole answer is the call, maybe in a code fence
  const bare = text
    .trim()
    .replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/, '$1')
    .trim();
  if (bare[0] !== '{' && bare[0] !== '[') return undefined;
  const calls = callsIn(bare, offered);
  return calls ? { calls, rest: '' } : undefined;
}
