/**
 * Walking a large HAE body element by element with stream-json (REFERENCE section 11 item 17:
 * bodies of tens of MB parsed whole were OOM-killed in 256 MB containers).
 *
 * The body is tokenised by stream-json's Parser (which decodes UTF-8 with a streaming decoder,
 * so a multi-byte character split across chunks survives) and only the elements of the two
 * arrays ingestion reads, `data.metrics[i]` / `data.workouts[i]` (or `metrics[i]` / `workouts[i]`
 * in section-only bodies without the `data` wrapper, HAE-FORMAT section 2), are assembled into
 * values, one at a time: memory is bounded by the largest metric block, not by the body.
 * Everything else (other sections, unknown keys) is tokenised and dropped.
 */
import type { Readable } from 'node:stream';
import Assembler from 'stream-json/Assembler.js';
import Parser from 'stream-json/Parser.js';

/** The sections whose elements are handed out. */
export type HaeSection = 'metrics' | 'workouts';

/** What walkHaePayload saw. */
export interface WalkResult {
  /** Elements handed out per section. */
  elements: Record<HaeSection, number>;
  /** The root value was a JSON object. */
  rootIsObject: boolean;
}

interface Token {
  name: string;
  value?: string;
}

type Frame = { array: false; key: string | null } | { array: true };

const SECTIONS = new Set<string>(['metrics', 'workouts']);
const PRIMITIVE: Record<string, (v?: string) => unknown> = {
  stringValue: (v) => v ?? '',
  numberValue: (v) => Number(v),
  nullValue: () => null,
  trueValue: () => true,
  falseValue: () => false,
};

/**
 * Streams `input` (bytes of a JSON body) through stream-json and calls `onElement` with each
 * element of the metrics and workouts arrays, in body order. When `onElement` returns a promise,
 * reading waits for it (backpressure: one element in memory at a time).
 * @throws the parser's error when the body is not valid JSON (elements before the error were
 *   already handed out), or the input stream's error.
 */
export function walkHaePayload(
  input: Readable,
  onElement: (section: HaeSection, value: unknown) => void | Promise<void>,
): Promise<WalkResult> {
  return new Promise<WalkResult>((resolve, reject) => {
    const parser = new Parser({ packValues: true, streamValues: false });
    const result: WalkResult = { elements: { metrics: 0, workouts: 0 }, rootIsObject: false };
    const stack: Frame[] = [];
    let asm: Assembler | null = null;
    let asmSection: HaeSection = 'metrics';
    let failed = false;

    const fail = (err: Error) => {
      if (failed) return;
      failed = true;
      input.unpipe(parser);
      input.destroy();
      parser.destroy();
      reject(err);
    };

    /** The section whose array is the innermost open container, if it is one of the two. */
    const targetSection = (): HaeSection | undefined => {
      const n = stack.length;
      const top = stack[n - 1];
      if (!top?.array) return undefined;
      const parent = stack[n - 2];
      if (!parent || parent.array || parent.key === null || !SECTIONS.has(parent.key)) return undefined;
      if (n === 2) return parent.key as HaeSection;
      const root = stack[0];
      if (n === 3 && !root.array && root.key === 'data') return parent.key as HaeSection;
      return undefined;
    };

    const emit = (section: HaeSection, value: unknown) => {
      result.elements[section]++;
      let r: void | Promise<void>;
      try {
        r = onElement(section, value);
      } catch (err) {
        fail(err as Error);
        return;
      }
      if (r && typeof (r as Promise<void>).then === 'function') {
        parser.pause();
        (r as Promise<void>).then(
          () => {
            if (!failed) parser.resume();
          },
          (err) => fail(err as Error),
        );
      }
    };

    parser.on('data', (token: Token) => {
      if (failed) return;
      if (asm) {
        asm.consume(token);
        if (asm.done) {
          const value = asm.current;
          asm = null;
          emit(asmSection, value);
        }
        return;
      }
      const isStart = token.name === 'startObject' || token.name === 'startArray';
      const section = isStart || token.name in PRIMITIVE ? targetSection() : undefined;
      if (section) {
        if (isStart) {
          asm = new Assembler();
          asmSection = section;
          asm.consume(token);
        } else emit(section, PRIMITIVE[token.name](token.value));
        return;
      }
      switch (token.name) {
        case 'startObject':
          if (stack.length === 0) result.rootIsObject = true;
          stack.push({ array: false, key: null });
          break;
        case 'startArray':
          stack.push({ array: true });
          break;
        case 'endObject':
        case 'endArray':
          stack.pop();
          break;
        case 'keyValue': {
          const top = stack[stack.length - 1];
          if (top && !top.array) top.key = token.value ?? '';
          break;
        }
      }
    });
    parser.on('error', fail);
    parser.on('end', () => {
      if (!failed) resolve(result);
    });
    input.on('error', fail);
    input.pipe(parser);
  });
}
