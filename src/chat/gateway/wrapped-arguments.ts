/**
 * A call whose arguments hold the call once more: `{"name": "append_row", "arguments": {...}}`
 * (Ollama with Qwen 2.5 and 3 wraps them so now and then), or only `{"arguments": {...}}`
 * (`parameters`, `input` likewise; DeepSeek's tool parser in vLLM). The tool refused them, since
 * its schema has no `name` or `arguments`, and the model was told its arguments were invalid.
 * They are read as the inner object when the tool's schema says that is what was meant: the
 * wrapper's keys are none of the tool's parameters, its `name` (when there) is the tool's own,
 * and every key of the inner object is one of the tool's parameters.
 */
import { rewriteCallArguments } from './argument-rewrite.js';
import { offeredToolName } from './text-tool-calls.js';
import { readToolArguments } from './tool-arguments.js';
import type { GatewayResult, ToolDefinition } from './types.js';

/** Keys a wrapper puts the real arguments under. */
const WRAPPER_KEYS = ['arguments', 'parameters', 'input', 'args'];

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The declared parameter names of a JSON Schema object, or undefined when it declares none. */
function declared(parameters: unknown): Set<string> | undefined {
  if (!isObject(parameters) || !isObject(parameters.properties)) return undefined;
  const names = Object.keys(parameters.properties);
  return names.length > 0 ? new Set(names) : undefined;
}

/**
 * The arguments `args` of a call to `tool` hold inside a wrapper, or undefined when they are not
 * wrapped (or the tool's schema cannot tell).
 */
export function unwrappedArguments(
  tool: ToolDefinition,
  args: Record<string, unknown>,
): Record<string, unknown> | undefined {
  const params = declared(tool.function.parameters);
  if (!params) return undefined;
  const keys = Object.keys(args);
  const wrapper = keys.filter((k) => WRAPPER_KEYS.includes(k));
  if (wrapper.length !== 1 || params.has(wrapper[0])) return undefined;
  for (const k of keys) {
    if (k === wrapper[0]) continue;
    if (k !== 'name' || params.has('name')) return undefined;
    const named = args.name;
    const own = new Set([tool.function.name]);
    if (typeof named !== 'string' || offeredToolName(named.trim(), own) === undefined) return undefined;
  }
  let inner = args[wrapper[0]];
  if (typeof inner === 'string') inner = readToolArguments(inner).parsed;
  if (!isObject(inner)) return undefined;
  return Object.keys(inner).every((k) => params.has(k)) ? inner : undefined;
}

/**
 * Unwraps the arguments of every call of `result` to an offered tool that wrapped them (see
 * above), in place: the call runs with the inner object and goes back in history as it; noted in
 * the result's warnings.
 */
export function unwrapCallArguments(
  result: GatewayResult,
  tools: readonly ToolDefinition[] | undefined,
): void {
  rewriteCallArguments(
    result,
    tools,
    unwrappedArguments,
    (name) => `read the arguments of ${name} from inside the call restated in them`,
  );
}
