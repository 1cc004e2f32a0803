import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CardFileBatch } from './card-file-batch.js';
import { contentHash } from './manifest-file.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'klebb-batch-'));
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const put = (name: string, text: string) => {
  fs.writeFileSync(path.join(dir, name), text);
  return { file: path.join(dir, name), hash: contentHash(text) };
};
const read = (name: string) => fs.readFileSync(path.join(dir, name), 'utf8');
const leftovers = () => fs.readdirSync(dir).filter((n) => n.startsWith('.'));

describe('CardFileBatch', () => {
  it('replaces, creates and removes files over the bytes it expects, and takes them all back', () => {
    const a = put('a.json', 'A1');
    const b = put('b.json', 'B1');
    const batch = new CardFileBatch();
    expect(batch.apply({ file: a.file, expectedHash: a.hash, text: 'A2' })).toBe('committed');
    expect(batch.apply({ file: path.join(dir, 'c.json'), expectedHash: undefined, text: 'C' })).toBe(
      'committed',
    );
    expect(batch.apply({ file: b.file, expectedHash: b.hash, text: undefined })).toBe('committed');
    expect([read('a.json'), read('c.json'), fs.existsSync(b.file)]).toEqual(['A2', 'C', false]);
    batch.takeBack();
    expect([read('a.json'), fs.existsSync(path.join(dir, 'c.json')), read('b.json')]).toEqual([
      'A1',
      false,
      'B1',
    ]);
    expect(leftovers()).toEqual([]);
  });

  it('refuses a file that holds other bytes, is gone, or exists where none was expected', () => {
    const a = put('a.json', 'A1');
    const batch = new CardFileBatch();
    fs.writeFileSync(a.file, 'hand edit');
    expect(batch.apply({ file: a.file, expectedHash: a.hash, text: 'A2' })).toBe('changed');
    expect(batch.apply({ file: a.file, expectedHash: a.hash, text: undefined })).toBe('changed');
    expect(batch.apply({ file: a.file, expectedHash: undefined, text: 'new' })).toBe('changed');
    expect(read('a.json')).toBe('hand edit');
    fs.rmSync(a.file);
    expect(batch.apply({ file: a.file, expectedHash: a.hash, text: 'A2' })).toBe('missing');
    expect(fs.existsSync(a.file)).toBe(false);
    expect(leftovers()).toEqual([]);
  });

  it('taking back never writes over a hand edit saved after the batch wrote', () => {
    const a = put('a.json', 'A1');
    const batch = new CardFileBatch();
    expect(batch.apply({ file: a.file, expectedHash: a.hash, text: 'A2' })).toBe('committed');
    fs.writeFileSync(a.file, 'saved by hand since');
    batch.takeBack();
    expect(read('a.json')).toBe('saved by hand since');
  });
});
