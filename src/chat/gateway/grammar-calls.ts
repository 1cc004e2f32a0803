/**
 * Tool calls as text-generation-inference (TGI, Hugging Face's server, and the Inference
 * Endpoints that ran it) sends them. TGI constrains the model to one JSON object,
 * `{"function": {"_name": "read_rows", "id": "water"}}`, and (2.0 to 2.3) adds a tool of its own,
 * `notify_error`, for when no offered tool fits:
 * - streamed (2.0 to 3.1), every piece of that object is a call's `arguments` with `name: null`
 *   (the name is only `_name` inside), and the end-of-turn token (`</s>`, `<|eot_id|>`) comes last:
 *   the call had no name, was dropped, and the person read that no answer came back;
 * - whole or streamed, a call to `notify_error` with `{"error": "…"}` is the model saying, to the
 *   person, why it calls no tool (TGI 2.3.1 and later put that sentence in the answer itself):
 *   run as a tool that does not exist, the model was told so and called it again until the turn
 *   ran out.
 * A nameless call whose arguments are that object is read as the call it names; a reply whose
 * only call is `notify_error` (not an offered tool) with an `error` text is read as that text.
 */
import { clipGraphemes } from '../../common/graphemes.js';
import type { RawToolCall, RawTurn } from './finalize.js';
import { readToolArguments } from './tool-arguments.js';

/** The tool TGI offers the model beside the request's tools, to say why none fits. */
const NO_TOOL_FITS = 'notify_error';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The call `slot` names inside its arguments (`{"function": {"_name": X, ...arguments}}`) when it
 * came without a name, else undefined.
 */
function namedInside(slot: RawToolCall): RawToolCall | undefined {
  if (typeof slot.name === 'string' && slot.name.trim() !== '') return undefined;
  const read = readToolArguments(slot.arguments).parsed;
  const inner = read?.function;
  if (read === undefined || Object.keys(read).length !== 1 || !isObject(inner)) return undefined;
  const { _name: name, ...args } = inner;
  if (typeof name !== 'string' || name.trim() === '') return undefined;
  return { ...slot, name, arguments: args };
}

/** The sentence of a `notify_error` call, when `slot` is one and the request offered no such tool. */
function noToolSentence(slot: RawToolCall, offered: ReadonlySet<string>): string | undefined {
  if (slot.name?.trim() !== NO_TOOL_FITS || offered.has(NO_TOOL_FITS)) return undefined;
  const args = readToolArguments(slot.arguments).parsed;
  const error = args?.error;
  if (args === undefined || Object.keys(args).length !== 1 || typeof error !== 'string') return undefined;
  return error.trim() === '' ? undefined : error.trim();
}

/**
 * `raw` with TGI's grammar calls read (see above): nameless calls that name themselves inside
 * their arguments get that name and the arguments beside it; a lone `notify_error` call becomes
 * the answer text. Each reading is noted in the warnings and told to `onWarning`. Returns `raw` itself when none applies.
 */
export function readGrammarCalls(raw: RawTurn, onWarning?: (message: string) => void): RawTurn {
  let changed = false;
  const warnings = [...raw.warnings];
  const warn = (message: string) => {
    warnings.push(message);
    onWarning?.(message);
  };
  const toolCalls = raw.toolCalls.map((slot) => {
    const named = namedInside(slot);
    if (!named) return slot;
    changed = true;
    warn(
      `read the tool name ${JSON.stringify(clipGraphemes(String(named.name), 80))} from inside its arguments`,
    );
    return named;
  });
  const only = toolCalls.length === 1 ? toolCalls[0] : undefined;
  const sentence = only ? noToolSentence(only, raw.offeredTools ?? new Set()) : undefined;
  if (sentence !== undefined) {
    warn(`read the model's ${NO_TOOL_FITS} call as its answer`);
    const text = raw.text.trim() === '' ? sentence : `${raw.text}\n\n${sentence}`;
    return { ...raw, text, toolCalls: [], warnings };
  }
  return changed ? { ...raw, toolCalls, warnings } : raw;
}
