import { describe, expect, it } from 'vitest';
import { findVoiceEnvelope, parseVoiceReply, scanObject, speakableText, VOICE_ENVELOPE } from './voice.js';

describe('VOICE_ENVELOPE', () => {
  it('asks for one JSON object with speak and display, and ends by handing over to the original prompt', () => {
    expect(VOICE_ENVELOPE).toContain('{"speak": "...", "display": "..."}');
    expect(VOICE_ENVELOPE).toMatch(/40 words at most/);
    expect(VOICE_ENVELOPE).toMatch(/"No response", "Loading"/);
    expect(VOICE_ENVELOPE.endsWith('Original system prompt follows.')).toBe(true);
  });
});

describe('parseVoiceReply: with an envelope', () => {
  it('reads a clean envelope', () => {
    expect(parseVoiceReply('{"speak": "Logged it.", "display": "Logged **82.4 kg** on Weight."}')).toEqual({
      speak: 'Logged it.',
      display: 'Logged **82.4 kg** on Weight.',
    });
  });

  it('finds an envelope after prose and inside a code fence', () => {
    const text =
      'Sure, here is my answer:\n```json\n{"speak": "Done.", "display": "Done: added the row."}\n```\n';
    expect(parseVoiceReply(text)).toEqual({ speak: 'Done.', display: 'Done: added the row.' });
  });

  it('accepts literal newlines, tabs and other control characters inside strings', () => {
    const text =
      '{"speak": "You have two entries this week.", "display": "This week:\n- **Monday**: 82.4 kg\r\n- **Thursday**:\t82.1 kg\u0001"}';
    expect(() => JSON.parse(text)).toThrow();
    expect(parseVoiceReply(text)).toEqual({
      speak: 'You have two entries this week.',
      display: 'This week:\n- **Monday**: 82.4 kg\r\n- **Thursday**:\t82.1 kg\u0001',
    });
  });

  it('a backslash right before a raw newline still parses', () => {
    expect(parseVoiceReply('{"speak": "a", "display": "line one\\\nline two"}').display).toBe(
      'line one\nline two',
    );
  });

  it('does not count braces inside strings', () => {
    const text =
      '{"speak": "Use curly braces.", "display": "Write `{kg} kg` as the template; a stray } or { is fine."}';
    expect(parseVoiceReply(text)).toEqual({
      speak: 'Use curly braces.',
      display: 'Write `{kg} kg` as the template; a stray } or { is fine.',
    });
  });

  it('keeps escaped quotes and backslashes', () => {
    const text = String.raw`{"speak": "She said \"done\".", "display": "Path: C:\\data \"quoted\""}`;
    expect(parseVoiceReply(text)).toEqual({ speak: 'She said "done".', display: 'Path: C:\\data "quoted"' });
  });

  it('takes the last of two envelopes', () => {
    const text =
      '{"speak": "First draft.", "display": "draft"}\nActually:\n{"speak": "Final answer.", "display": "final"}';
    expect(parseVoiceReply(text)).toEqual({ speak: 'Final answer.', display: 'final' });
  });

  it('ignores a later object that is not an envelope, and an invalid one', () => {
    const text = '{"speak": "Yes.", "display": "Yes."} trailing {"note": 1} and {broken';
    expect(parseVoiceReply(text)).toEqual({ speak: 'Yes.', display: 'Yes.' });
  });

  it('handles nested objects: an envelope with nested values, and an envelope wrapped in another object', () => {
    const nested =
      '{"speak": "Outer.", "display": "outer", "extra": {"speak": "inner", "deep": {"a": [1, {"b": 2}]}}}';
    expect(parseVoiceReply(nested)).toEqual({ speak: 'Outer.', display: 'outer' });
    const wrapped = '{"reply": {"speak": "Wrapped.", "display": "wrapped"}}';
    expect(parseVoiceReply(wrapped)).toEqual({ speak: 'Wrapped.', display: 'wrapped' });
  });

  it('skips unbalanced braces and quotes in prose before the envelope', () => {
    const text = 'He typed "{" by mistake { and then:\n{"speak": "Fixed.", "display": "Fixed it."}';
    expect(parseVoiceReply(text)).toEqual({ speak: 'Fixed.', display: 'Fixed it.' });
  });

  it('speak only: display falls back to speak', () => {
    expect(parseVoiceReply('{"speak": "Hello there."}')).toEqual({
      speak: 'Hello there.',
      display: 'Hello there.',
    });
  });

  it('display only: speak falls back to display, without its markdown', () => {
    expect(parseVoiceReply('{"display": "Your **weight** is steady."}')).toEqual({
      speak: 'Your weight is steady.',
      display: 'Your **weight** is steady.',
    });
  });

  it('an empty speak falls back to display; non-string fields do not count', () => {
    expect(parseVoiceReply('{"speak": "", "display": "Only this."}')).toEqual({
      speak: 'Only this.',
      display: 'Only this.',
    });
    expect(parseVoiceReply('{"speak": 42, "display": "Shown."}')).toEqual({
      speak: 'Shown.',
      display: 'Shown.',
    });
    expect(findVoiceEnvelope('{"speak": 42, "display": null}')).toBeNull();
  });
});

describe('parseVoiceReply: without an envelope', () => {
  it('displays the text and speaks it without emoji or markdown', () => {
    const text =
      '## Summary\n- **Weight**: 82.4 kg 👍🏽!\n- _Mood_: good ❤️\n> Keep going 🔥\nSee [the docs](https://example.org/docs) 👨‍👩‍👧 🇩🇪';
    expect(parseVoiceReply(text)).toEqual({
      display: text,
      speak: 'Summary Weight: 82.4 kg! Mood: good Keep going See the docs',
    });
  });

  it('keeps digits, snake_case names and arithmetic stars', () => {
    expect(speakableText('Call read_manifest_rows, then 2 * 3 * 4 is 24 and 1️⃣ stays 1.')).toBe(
      'Call read_manifest_rows, then 2 * 3 * 4 is 24 and 1 stays 1.',
    );
  });

  it('plain text passes through', () => {
    expect(parseVoiceReply('  You are welcome.  ')).toEqual({
      speak: 'You are welcome.',
      display: 'You are welcome.',
    });
  });
});

describe('scanObject', () => {
  it('returns the balanced object and the index after it, or null when it never closes', () => {
    expect(scanObject('x {"a": "}"} y', 2)).toEqual({ json: '{"a": "}"}', end: 12 });
    expect(scanObject('{"a": {', 0)).toBeNull();
  });
});
