import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { logStream } from './log-stream.js';

function epipe(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(code), { code });
}

describe('logStream', () => {
  it('writes each line to the stream at once, in order', () => {
    const out = new PassThrough();
    const s = logStream(out);
    s.write('{"a":1}\n');
    s.write('{"b":2}\n');
    expect(String(out.read())).toBe('{"a":1}\n{"b":2}\n');
  });

  it('stops writing once the reader is gone (EPIPE) instead of crashing', () => {
    const out = new PassThrough();
    const s = logStream(out);
    expect(() => out.emit('error', epipe('EPIPE'))).not.toThrow();
    s.write('after\n');
    expect(out.read()).toBeNull();
  });

  it('still throws any other error of the stream', () => {
    const out = new PassThrough();
    logStream(out);
    expect(() => out.emit('error', epipe('EIO'))).toThrow('EIO');
  });

  it('adds one error listener per stream, however many apps log there', () => {
    const out = new PassThrough();
    logStream(out);
    logStream(out);
    expect(out.listenerCount('error')).toBe(1);
  });
});
