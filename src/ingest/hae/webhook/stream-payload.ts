/**
 * Walking a large HAE body point by point with stream-json (bodies
 * of tens of MB parsed whole were OOM-killed in 256 MB containers).
 *
 * The body is tokenised by stream-json's Parser (which decodes UTF-8 with a streaming decoder, so
 * a multi-byte character split across chunks survives). Only the parts ingestion reads are turned
 * into values, each on its own: the elements of `data.metrics[i].data` (points), the other keys of
 * a metric block (`name`, `units`, ...), and the elements of `data.workouts` (or of `metrics` /
 * `workouts` at the top level, for section-only bodies without the `data` wrapper). One point is in memory at a time here, however large a metric block is; everything
 * else (other sections, unknown keys) is tokenised and dropped. String values are copied out of the
 * parser's chunk (ownString), so a point held until its chunk of points is stored does not keep
 * the body text it came from.
 */
import type { Readable } from 'node:stream';
import Assembler from 'stream-json/Assembler.js';
import Parser from 'stream-json/Parser.js';
import { lookupTable } from '../../../common/lookup-table.js';
import { isOtherSection, objectCounts, sectionMetric } from '../format/other-sections.js';
import { ownString } from '../format/own-string.js';

/** What the walker hands out, in body order. A returned promise pauses reading until it settles. */
export interface PayloadVisitor {
  /** A `metrics[i]` object begins. */
  blockStart(): void | Promise<void>;
  /** A key of the current block with its value, except an array `data` (whose elements come as points). */
  blockField(key: string, value: unknown): void | Promise<void>;
  /** One element of the current block's `data` array. */
  point(value: unknown): void | Promise<void>;
  /** The current block's object ends. */
  blockEnd(): void | Promise<void>;
  /** A `metrics[i]` that is not an object (a malformed block). */
  badBlock(value: unknown): void | Promise<void>;
  /** One element of `workouts`. */
  workout(value: unknown): void | Promise<void>;
}

/** What walkHaePayload saw. */
export interface WalkResult {
  /** The root value was a JSON object. */
  rootIsObject: boolean;
  /** Metric blocks (including malformed ones) and workouts seen. */
  blocks: number;
  workouts: number;
  /**
   * The other sections of the body or its `data` (symptoms, ecg, ...), in body order, with the
   * entries each held (other-sections.ts sectionEntries): not read, but counted for the warnings.
   */
  otherSections: Map<string, number>;
}

interface Token {
  name: string;
  value?: string;
}

/** Errors of the parser itself: the body is not valid JSON (not a failure to store what it holds). */
const parseErrors = new WeakSet<object>();

/** True when `err` is walkHaePayload's error for a body that stops being valid JSON. */
export function isBodyParseError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && parseErrors.has(err);
}

/** What a container is to ingestion. */
type Role = 'root' | 'data' | 'metrics' | 'block' | 'points' | 'workouts' | 'section' | 'other';

interface Frame {
  role: Role;
  array: boolean;
  /** The key whose value comes next (objects). */
  key: string | null;
  /** For a section ingestion does not read, its name: its entries are counted, nothing more. */
  section: string | undefined;
}

/** Where an assembled value goes. */
type Sink = 'point' | 'workout' | 'badBlock' | { field: string } | { sectionEntry: string };

const PRIMITIVE = lookupTable<(v?: string) => unknown>({
  stringValue: (v) => v ?? '',
  numberValue: (v) => Number(v),
  nullValue: () => null,
  trueValue: () => true,
  falseValue: () => false,
});

/**
 * The role of a value that starts inside `parent` (under `parent.key` for objects), or the sink
 * it is assembled into; 'other' for values ingestion does not read.
 */
function roleOf(parent: Frame | undefined, isObject: boolean, isArray: boolean): Role | Sink {
  if (!parent) return isObject ? 'root' : 'other';
  switch (parent.role) {
    case 'root':
    case 'data':
      if (parent.role === 'root' && parent.key === 'data' && isObject) return 'data';
      if (parent.key === 'metrics' && isArray) return 'metrics';
      if (parent.key === 'workouts' && isArray) return 'workouts';
      // a section read as a metric block of its own (symptoms, medications): its entries are points
      if (parent.key !== null && sectionMetric(parent.key) !== undefined) {
        if (isArray) return 'section';
        // one entry sent as an object instead of a list of one
        if (isObject) return { sectionEntry: sectionMetric(parent.key) ?? '' };
      }
      return 'other';
    case 'metrics':
      return isObject ? 'block' : 'badBlock';
    case 'block':
      if (parent.key === 'data' && isArray) return 'points';
      return { field: parent.key ?? '' };
    case 'points':
    case 'section':
      return 'point';
    case 'workouts':
      return 'workout';
    default:
      return 'other';
  }
}

/**
 * The section a container that starts inside `parent` with `role` is, when it is one ingestion
 * does not read (a list or object under a key of the body or of its `data` other than metrics
 * and workouts), else undefined.
 */
function sectionOf(parent: Frame | undefined, role: Role | Sink): string | undefined {
  if (role !== 'other' || parent === undefined || parent.key === null) return undefined;
  if (parent.role !== 'root' && parent.role !== 'data') return undefined;
  return isOtherSection(parent.key) ? parent.key : undefined;
}

/**
 * Streams `input` (bytes of a JSON body) through stream-json and calls the visitor, in body order.
 * @throws the parser's error when the body is not valid JSON (everything before the error was
 *   already handed out; isBodyParseError tells it apart), the input stream's error, or a
 *   visitor's error.
 */
export function walkHaePayload(input: Readable, visitor: PayloadVisitor): Promise<WalkResult> {
  return new Promise<WalkResult>((resolve, reject) => {
    const parser = new Parser({ packValues: true, streamValues: false });
    const result: WalkResult = { rootIsObject: false, blocks: 0, workouts: 0, otherSections: new Map() };
    const stack: Frame[] = [];
    // one Assembler, reused for every value (a new one per point is garbage a 100 MB body makes millions of)
    const assembler = new Assembler();
    let asm: Assembler | null = null;
    let asmSink: Sink = 'point';
    let failed = false;
    /** The visitor call still running, if any (the walk ends only after it). */
    let running: Promise<void> | undefined;

    const fail = (err: Error) => {
      if (failed) return;
      failed = true;
      input.unpipe(parser);
      input.destroy();
      parser.destroy();
      reject(err);
    };

    /** Runs a visitor call; a promise pauses the parser until it settles. */
    const call = (fn: () => void | Promise<void>) => {
      let r: void | Promise<void>;
      try {
        r = fn();
      } catch (err) {
        fail(err as Error);
        return;
      }
      if (r && typeof (r as Promise<void>).then === 'function') {
        parser.pause();
        running = (r as Promise<void>).then(
          () => {
            running = undefined;
            if (!failed) parser.resume();
          },
          (err) => fail(err as Error),
        );
      }
    };

    const deliver = (sink: Sink, value: unknown) => {
      if (sink === 'point') call(() => visitor.point(value));
      else if (sink === 'workout') {
        result.workouts++;
        call(() => visitor.workout(value));
      } else if (sink === 'badBlock') {
        result.blocks++;
        call(() => visitor.badBlock(value));
      } else if ('sectionEntry' in sink) {
        result.blocks++;
        call(async () => {
          await visitor.blockStart();
          await visitor.blockField('name', sink.sectionEntry);
          await visitor.blockField('units', 'count');
          await visitor.point(value);
          await visitor.blockEnd();
        });
      } else call(() => visitor.blockField(sink.field, value));
    };

    parser.on('data', (token: Token) => {
      if (failed) return;
      // the parser cuts a string value out of the chunk it is reading; as is, the value would keep
      // that whole 64 KiB chunk alive (own-string.ts) for as long as its point waits to be stored
      if (token.name === 'stringValue' && token.value !== undefined) token.value = ownString(token.value);
      if (asm) {
        asm.consume(token);
        if (asm.done) {
          const value = asm.current;
          asm.current = null;
          asm = null;
          deliver(asmSink, value);
        }
        return;
      }
      const top = stack[stack.length - 1];
      switch (token.name) {
        case 'keyValue':
          if (top && !top.array) {
            top.key = token.value ?? '';
            // an app section sent as an object: one entry
            if (top.section !== undefined && objectCounts(top.section))
              result.otherSections.set(top.section, 1);
          }
          return;
        case 'endObject':
        case 'endArray': {
          const done = stack.pop();
          if (done?.role === 'block' || done?.role === 'section') call(() => visitor.blockEnd());
          return;
        }
      }
      const isObject = token.name === 'startObject';
      const isArray = token.name === 'startArray';
      if (!isObject && !isArray && PRIMITIVE[token.name] === undefined) return;
      if (!top && isObject) result.rootIsObject = true;
      // one more entry of a section ingestion does not read
      if (top?.section !== undefined && top.array) {
        result.otherSections.set(top.section, (result.otherSections.get(top.section) ?? 0) + 1);
      }
      const role = roleOf(top, isObject, isArray);
      if (typeof role === 'object' || role === 'point' || role === 'workout' || role === 'badBlock') {
        if (isObject || isArray) {
          asm = assembler;
          asmSink = role;
          asm.consume(token);
        } else deliver(role, PRIMITIVE[token.name]?.(token.value));
        return;
      }
      if (isObject || isArray) {
        const section = sectionOf(top, role);
        if (section !== undefined) result.otherSections.set(section, 0);
        stack.push({ role, array: isArray, key: null, section });
        if (role === 'block') {
          result.blocks++;
          call(() => visitor.blockStart());
        } else if (role === 'section') {
          const metric = sectionMetric(top?.key ?? '') ?? '';
          result.blocks++;
          call(async () => {
            await visitor.blockStart();
            await visitor.blockField('name', metric);
            await visitor.blockField('units', 'count');
          });
        }
      }
    });
    parser.on('error', (err: Error) => {
      parseErrors.add(err);
      fail(err);
    });
    parser.on('end', () => {
      void Promise.resolve(running).then(() => {
        if (!failed) resolve(result);
      });
    });
    input.on('error', fail);
    input.pipe(parser);
  });
}
