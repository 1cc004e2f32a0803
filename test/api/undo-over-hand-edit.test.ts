/**
 * Undo (and redo, the undo of an undo) never writes over or removes a card file that holds
 * something the server did not write or read: an unfinished hand edit (invalid JSON, whether or
 * not the watcher has delivered it yet) or a file deleted by hand moments ago. Each is 409
 * UNDO_CONFLICT naming the file, and the file is left exactly as the person left it. The same
 * holds for a card deletion over an unfinished edit (409 FILE_INVALID) and for the undo an MCP
 * client asks for.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';

const T = 'undo-hand-edit-token';
let s: TestServer;

beforeAll(async () => {
  s = await startServer({ env: { AGENT_API_TOKEN: T } });
});
afterAll(async () => {
  await s.close();
});

const api = (p: string, init: Parameters<TestServer['api']>[1] = {}) => s.api(p, { token: T, ...init });
const newestSet = async (): Promise<number> => (await api('/api/changes?limit=1')).body.changeSets[0].id;
const fileOf = (id: string) => path.join(s.dataDir, `${id}.json`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function createCard(id: string): Promise<void> {
  const r = await api('/api/manifests', {
    json: { $schema: 'klebb.datafile.v1', meta: { id, label: `Card ${id}` } },
  });
  expect(r.status, r.text).toBe(201);
}

async function patchLabel(id: string, label: string): Promise<number> {
  const r = await api(`/api/manifests/${id}`, { method: 'PATCH', json: { meta: { label } } });
  expect(r.status, r.text).toBe(200);
  return newestSet();
}

/** Waits until the card list reports the file as not loading (the watcher delivered the edit). */
async function untilReported(file: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const errors = (await api('/api/manifests')).body.errors as { file: string; code: string }[];
    if (errors.some((e) => e.file === file && e.code === 'INVALID_JSON')) return;
    await sleep(25);
  }
  throw new Error(`${file} was never reported`);
}

const unfinished = (id: string) =>
  `{"$schema":"klebb.datafile.v1","meta":{"id":"${id}","label":"my unfinished edit`;

function expectHandEditConflict(r: Awaited<ReturnType<typeof api>>, id: string): void {
  expect(r.status).toBe(409);
  expect(r.body.code).toBe('UNDO_CONFLICT');
  expect(r.body.error).toContain(`${id}.json`);
  expect(r.body.error).toContain('Nothing was undone');
  expect(r.body.conflicts).toEqual([
    expect.objectContaining({ cardId: id, actor: 'file', path: `${id}.json` }),
  ]);
}

describe('undo over a hand edit the server did not write', () => {
  it('refuses to write over an unfinished edit the watcher has delivered, and keeps its bytes', async () => {
    await createCard('w10');
    const setId = await patchLabel('w10', 'Before');
    fs.writeFileSync(fileOf('w10'), unfinished('w10'));
    await untilReported('w10.json');
    const patch = await api('/api/manifests/w10', { method: 'PATCH', json: { meta: { label: 'x' } } });
    expect(patch.body.code).toBe('FILE_INVALID');
    const r = await api(`/api/changes/${setId}/undo`, { method: 'POST' });
    expectHandEditConflict(r, 'w10');
    expect(r.body.error).toContain('not valid JSON');
    expect(fs.readFileSync(fileOf('w10'), 'utf8')).toBe(unfinished('w10'));
    expect((await api('/api/changes?limit=1')).body.changeSets[0].id).toBe(setId);
  });

  it('refuses the same for an unfinished edit saved a moment ago (not delivered yet)', async () => {
    await createCard('w11');
    const setId = await patchLabel('w11', 'Before');
    fs.writeFileSync(fileOf('w11'), unfinished('w11'));
    const r = await api(`/api/changes/${setId}/undo`, { method: 'POST' });
    expectHandEditConflict(r, 'w11');
    expect(fs.readFileSync(fileOf('w11'), 'utf8')).toBe(unfinished('w11'));
  });

  it('does not bring back a file deleted by hand a moment ago', async () => {
    await createCard('w12');
    const setId = await patchLabel('w12', 'Before');
    fs.rmSync(fileOf('w12'));
    const r = await api(`/api/changes/${setId}/undo`, { method: 'POST' });
    expectHandEditConflict(r, 'w12');
    expect(r.body.error).toContain('deleted by hand');
    expect(fs.existsSync(fileOf('w12'))).toBe(false);
    // and once the watcher has delivered the deletion, it is a later change like any other
    await sleep(1_000);
    expect(fs.existsSync(fileOf('w12'))).toBe(false);
    const again = await api(`/api/changes/${setId}/undo`, { method: 'POST' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('UNDO_CONFLICT');
    expect(fs.existsSync(fileOf('w12'))).toBe(false);
  });

  it('a redo (undo of an undo) refuses to write over an unfinished edit too', async () => {
    await createCard('w13');
    const setId = await patchLabel('w13', 'After');
    const undo = await api(`/api/changes/${setId}/undo`, { method: 'POST' });
    expect(undo.status, undo.text).toBe(200);
    expect(JSON.parse(fs.readFileSync(fileOf('w13'), 'utf8')).meta.label).toBe('Card w13');
    fs.writeFileSync(fileOf('w13'), unfinished('w13'));
    const redo = await api(`/api/changes/${undo.body.changeSet.id}/undo`, { method: 'POST' });
    expectHandEditConflict(redo, 'w13');
    expect(fs.readFileSync(fileOf('w13'), 'utf8')).toBe(unfinished('w13'));
  });

  it('the undo of a card creation does not remove a file holding an unfinished edit', async () => {
    await createCard('w14');
    const setId = await newestSet();
    fs.writeFileSync(fileOf('w14'), unfinished('w14'));
    const r = await api(`/api/changes/${setId}/undo`, { method: 'POST' });
    expectHandEditConflict(r, 'w14');
    expect(fs.readFileSync(fileOf('w14'), 'utf8')).toBe(unfinished('w14'));
  });

  it('a card deletion does not throw away an unfinished edit (409 FILE_INVALID)', async () => {
    await createCard('w15');
    fs.writeFileSync(fileOf('w15'), unfinished('w15'));
    const r = await api('/api/manifests/w15', { method: 'DELETE' });
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('FILE_INVALID');
    expect(fs.readFileSync(fileOf('w15'), 'utf8')).toBe(unfinished('w15'));
    expect((await api('/api/manifests/w15')).status).toBe(200);
  });

  it('an undo asked for over MCP is refused the same way', async () => {
    await createCard('w16');
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${T}` } },
      }),
    );
    try {
      const patch = await client.callTool({
        name: 'patch_manifest',
        arguments: { id: 'w16', patch: { meta: { label: 'By MCP' } } },
      });
      expect(patch.isError, JSON.stringify(patch)).toBe(false);
      fs.writeFileSync(fileOf('w16'), unfinished('w16'));
      const r = await client.callTool({ name: 'undo_last_change', arguments: {} });
      expect(r.isError).toBe(true);
      const body = JSON.parse((r.content as { text: string }[])[0].text);
      expect(body.code).toBe('UNDO_CONFLICT');
      expect(fs.readFileSync(fileOf('w16'), 'utf8')).toBe(unfinished('w16'));
    } finally {
      await client.close();
    }
  });
});
