/**
 * How deep a parsed JSON body nests. `JSON.parse` reads a body nested 100,000 levels deep (V8
 * parses iteratively), but every recursive step after it (`JSON.stringify` of a block for its
 * memo, structured clones) overflows the call stack, and the answer then showed V8's "Maximum
 * call stack size exceeded". An HAE body nests about 8 levels (data → metrics → block → data →
 * point → metadata), a workout's route a few more; MAX_JSON_DEPTH leaves ample room. The parsed
 * value is walked rather than the bytes scanned: it has a few values per point where the text
 * has tens of bytes, so the check costs a sixth of a scan.
 */

/** Deepest array/object nesting accepted in a body. */
export const MAX_JSON_DEPTH = 64;

/**
 * True when `value` (as JSON.parse gives it) holds arrays/objects more than `limit` inside each
 * other, the outermost counted as 1. An explicit stack, so the walk itself never recurses; it
 * stops at the first level past the limit.
 */
export function nestsDeeperThan(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  if (value === null || typeof value !== 'object') return false;
  const stack: object[] = [value];
  const depths: number[] = [1];
  while (stack.length > 0) {
    const node = stack.pop() as Record<string, unknown> | unknown[];
    const depth = depths.pop() as number;
    if (depth > limit) return true;
    const push = (child: unknown) => {
      if (child !== null && typeof child === 'object') {
        stack.push(child);
        depths.push(depth + 1);
      }
    };
    if (Array.isArray(node)) for (const child of node) push(child);
    else for (const key in node) push(node[key]);
  }
  return false;
}
