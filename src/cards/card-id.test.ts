import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KlebbError } from '../errors.js';
import { MAX_CARD_ID_CHARS, RESERVED_CARD_IDS } from '../limits.js';
import { cardFilePath, checkCardId } from './card-id.js';

describe('checkCardId', () => {
  it.each(['bp', 'blood-pressure', 'a', '0', 'x.y_z-1', 'sleep-hours', 'a..b'])('accepts %s', (id) => {
    expect(checkCardId(id)).toBeNull();
  });

  it.each([undefined, null, 42, {}, ''])('rejects non-string or empty %j', (id) => {
    expect(checkCardId(id)).toEqual({ path: 'meta.id', message: 'meta.id must be a non-empty string' });
  });

  it.each([...RESERVED_CARD_IDS])('rejects reserved name %s, saying so', (id) => {
    const e = checkCardId(id);
    expect(e?.path).toBe('meta.id');
    expect(e?.message).toContain('reserved');
    expect(e?.message).toContain(`"${id}"`);
  });

  it('accepts 64 characters and rejects 65, naming the limit', () => {
    expect(checkCardId('a'.repeat(MAX_CARD_ID_CHARS))).toBeNull();
    const e = checkCardId('a'.repeat(MAX_CARD_ID_CHARS + 1));
    expect(e).toEqual({ path: 'meta.id', message: 'meta.id must be at most 64 characters (got 65)' });
  });

  it.each(['Blood', '-bp', '.bp', '_bp', 'b p', 'bp/x', '../etc', 'bp\\x', 'é', 'bp\0', 'index.JSON'])(
    'rejects %j with the pattern message',
    (id) => {
      const e = checkCardId(id);
      expect(e?.path).toBe('meta.id');
      expect(e?.message).toContain('must match /^[a-z0-9][a-z0-9._-]*$/');
    },
  );

  it.each(['a.json.b', 'weight.json.20260101', 'x.json.json'])(
    'rejects %j, whose file would be named like a backup and not loaded',
    (id) => {
      const e = checkCardId(id);
      expect(e?.path).toBe('meta.id');
      expect(e?.message).toContain('must not contain ".json."');
    },
  );

  it.each(['a.json', 'json.b', 'a.jsonb.c', 'a.json-b'])('accepts %j (no ".json." inside)', (id) => {
    expect(checkCardId(id)).toBeNull();
  });

  it('accepts near-reserved names', () => {
    expect(checkCardId('index2')).toBeNull();
    expect(checkCardId('reports-weekly')).toBeNull();
  });
});

describe('cardFilePath', () => {
  const dir = '/home/x/data';

  it('returns <dataDir>/<id>.json, absolute', () => {
    expect(cardFilePath(dir, 'bp')).toBe('/home/x/data/bp.json');
    expect(cardFilePath('/home/x/data/', 'a.b')).toBe('/home/x/data/a.b.json');
  });

  it('resolves a relative data dir', () => {
    expect(cardFilePath('data', 'bp')).toBe(path.resolve('data', 'bp.json'));
  });

  it.each([
    '../bp',
    '../../etc/passwd',
    'sub/bp',
    '/etc/passwd',
    'a\\..\\b',
    '..',
    '.',
    '.hidden',
    '',
    'a\0b',
  ])('throws 422 for %j', (id) => {
    let caught: unknown;
    try {
      cardFilePath(dir, id);
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(KlebbError);
    const k = caught as KlebbError;
    expect(k.status).toBe(422);
    expect(k.details?.[0].path).toBe('meta.id');
  });
});
