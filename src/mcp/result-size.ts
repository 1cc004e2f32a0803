/**
 * The size of an MCP tool result. MCP clients refuse results over their own limit (Claude
 * Desktop: 1 MiB of JSON, "result exceeds maximum length of 1048576") and the assistant is left
 * with that bare message and no idea what to ask instead. A result over MCP_MAX_RESULT_BYTES is
 * therefore not sent: the call answers a small error result, RESULT_TOO_LARGE, that says how large
 * it was and which tools read the same thing in pages. A card resource too large to read is
 * refused the same way, as a JSON-RPC error.
 */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { MCP_MAX_RESULT_BYTES } from '../limits.js';

/** A tool result as the MCP server answers it (a type, not an interface, so the SDK's index signature fits). */
export type ToolResult = {
  content: { type: 'text'; text: string }[];
  isError: boolean;
};

/** What to use instead of a tool that returned too much, by tool name. */
const INSTEAD: Record<string, string> = {
  read_manifest:
    'read the card with read_manifest_meta and its rows in pages with read_manifest_rows (limit up to 1000, offset)',
  read_manifest_rows: 'ask for fewer rows (a smaller limit) and page with offset',
};

/** Megabytes with one decimal, for the message. */
const mb = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;

/**
 * `result` when its JSON is at most MCP_MAX_RESULT_BYTES (UTF-8 bytes, escapes included, as it
 * goes on the wire), else an isError result `{error, code: 'RESULT_TOO_LARGE'}` naming the tool,
 * the size and what to call instead. Nothing the tool did is undone: only reads return this much.
 */
export function fitResult(tool: string, result: ToolResult): ToolResult {
  const bytes = Buffer.byteLength(JSON.stringify(result));
  if (bytes <= MCP_MAX_RESULT_BYTES) return result;
  const instead = INSTEAD[tool] ?? 'ask for less at a time';
  const error = `the result of ${tool} is ${mb(bytes)}, more than the ${mb(MCP_MAX_RESULT_BYTES)} an MCP client takes in one result, so it was not sent; ${instead}`;
  return {
    content: [{ type: 'text', text: JSON.stringify({ error, code: 'RESULT_TOO_LARGE' }) }],
    isError: true,
  };
}

/**
 * The error `resources/read` answers for the card resource `uri` whose JSON `text` is over
 * MCP_MAX_RESULT_BYTES (escaped as it goes on the wire), or undefined when it fits: -32602
 * (invalid params: this URI cannot be read whole) with `data` `{code: 'RESULT_TOO_LARGE', uri,
 * bytes}` and a message naming the tools that read the card in pages.
 */
export function resourceTooLarge(uri: string, text: string): McpError | undefined {
  const bytes = Buffer.byteLength(JSON.stringify(text));
  if (bytes <= MCP_MAX_RESULT_BYTES) return undefined;
  return new McpError(
    ErrorCode.InvalidParams,
    `${uri} is ${mb(bytes)}, more than the ${mb(MCP_MAX_RESULT_BYTES)} an MCP client takes in one result, so it was not sent; ${INSTEAD.read_manifest}`,
    { code: 'RESULT_TOO_LARGE', uri, bytes },
  );
}
