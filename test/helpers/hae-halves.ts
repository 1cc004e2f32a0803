/**
 * A Health Auto Export payload cut in two, for the tests that check a payload split across two
 * posts gives the same rows as one post.
 */

/**
 * Splits a parsed HAE body (`{data: {metrics, workouts}}` or unwrapped `{metrics, workouts}`):
 * each metric's points and the workouts are cut at their middle; the wrapper and any other
 * section are kept in both halves. The input is not modified.
 * @returns the first and the second half, each shaped like the input.
 */
export function halvePayload(body: unknown): [unknown, unknown] {
  const root = body as Record<string, unknown>;
  const wrapped = root.data !== undefined;
  const sections = (wrapped ? root.data : root) as Record<string, unknown>;
  const part = (first: boolean) => {
    const out: Record<string, unknown> = { ...sections };
    if (Array.isArray(sections.metrics)) {
      out.metrics = (sections.metrics as { data: unknown[] }[]).map((m) => {
        const mid = Math.floor(m.data.length / 2);
        return { ...m, data: first ? m.data.slice(0, mid) : m.data.slice(mid) };
      });
    }
    if (Array.isArray(sections.workouts)) {
      const w = sections.workouts as unknown[];
      const mid = Math.floor(w.length / 2);
      out.workouts = first ? w.slice(0, mid) : w.slice(mid);
    }
    return wrapped ? { data: out } : out;
  };
  return [part(true), part(false)];
}
