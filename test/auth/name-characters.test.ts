/**
 * A passkey's name and an agent token's name are at most 64 characters counted as a person
 * counts them, as the web app counts them: a family emoji (seven code points), a flag (two) or a
 * letter typed with a combining accent (two) is one character. A name of 64 such characters is
 * kept whole; 65 are 400 naming the field, and nothing is stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { browser, codeOf, register } from './flows.js';
import { SoftAuthenticator } from './soft-authenticator.js';

/** `lead`, then nine characters of 22 code points, then x up to 64 characters. */
function sixtyFour(lead: string): string {
  return `${lead}${'👨‍👩‍👧‍👦🇳🇿e\u0301'.repeat(3)}${'x'.repeat(64 - lead.length - 9)}`;
}

let s: TestServer;
let cookie: string;

beforeAll(async () => {
  s = await startServer();
  const first = await register(s, new SoftAuthenticator(s.url), {
    code: codeOf(s.inst.auth.setupLink() as string),
  });
  expect(first.verify?.status).toBe(200);
  cookie = first.cookie as string;
});
afterAll(async () => {
  await s?.close();
});

describe('names of passkeys and tokens', () => {
  it('a passkey named with 64 characters of emoji and accents keeps its name whole; 65 is 400', async () => {
    const name = sixtyFour('Watch ');
    expect([...name].length).toBeGreaterThan(64);
    const over = await register(s, new SoftAuthenticator(s.url), { nickname: `${name}y` }, cookie);
    expect(over.verify?.status).toBe(400);
    expect(over.verify?.body.details[0].path).toBe('body.nickname');
    const watch = new SoftAuthenticator(s.url);
    const r = await register(s, watch, { nickname: name }, cookie);
    expect(r.verify?.status, JSON.stringify(r.verify?.body)).toBe(200);
    const id = watch.credentials[0].id.toString('base64url');
    const listed = await s.api('/api/credentials', { headers: browser(s.url, cookie) });
    expect(listed.body.credentials.find((c: { id: string }) => c.id === id)?.nickname).toBe(name);
    expect(listed.body.credentials).toHaveLength(2);
  });

  it('a token named with 64 characters of emoji and accents keeps its name whole; 65 is 400', async () => {
    const h = browser(s.url, cookie);
    const name = sixtyFour('Shortcuts ');
    const over = await s.api('/api/tokens', { json: { name: `${name}y`, access: 'read' }, headers: h });
    expect(over.status).toBe(400);
    expect(over.body.details[0].path).toBe('body.name');
    const made = await s.api('/api/tokens', { json: { name, access: 'read' }, headers: h });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.token.name).toBe(name);
    const listed = await s.api('/api/tokens', { headers: h });
    expect(listed.body.tokens.map((t: { name: string }) => t.name)).toEqual([name]);
  });
});
