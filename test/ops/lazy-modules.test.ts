/**
 * What an idle server does not need is loaded at first use: the chat turn loop and the title
 * maker (with the gateway client), the report reading pipeline and the report page, the OpenAPI
 * plugin that makes `GET /api/openapi.json`. A real
 * server child logs every ES module it loads (test/fixtures/module-log); the test reads that
 * log after start-up and again after each first use. Also: only one TypeBox is loaded (the
 * type provider's own copy is never needed at run time).
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { distMainUnbundled, killAllChildren, spawnServer } from '../helpers/child-server.js';
import { repoRoot, sandboxHome } from '../helpers/sandbox-home.js';
import { startScriptedGateway } from '../helpers/scripted-gateway.js';

afterAll(() => killAllChildren());

const hook = pathToFileURL(path.join(repoRoot, 'test/fixtures/module-log/hook.mjs')).href;

/** The modules loaded so far, as paths under dist/src (or node_modules/...). */
function loaded(log: string): string[] {
  return fs
    .readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((url) => url.replace(/^.*\/(dist\/src|node_modules)\//, '$1/'));
}

/** Waits until `module` shows in the log (a background job loads it a moment after the answer). */
async function waitForModule(log: string, module: string): Promise<string[]> {
  for (let i = 0; i < 100; i++) {
    const now = loaded(log);
    if (now.includes(module)) return now;
    await new Promise((r) => setTimeout(r, 50));
  }
  return loaded(log);
}

describe('modules loaded at first use', () => {
  it('starts without the chat loop and report reading, and loads each on its first use', async () => {
    const gw = await startScriptedGateway();
    const box = sandboxHome();
    const log = path.join(box.home, '..', `modules-${process.pid}.log`);
    try {
      // the file-by-file build, whose module names tell the parts apart (the production bundle
      // keeps each of these dynamic imports as a chunk of its own)
      const child = await spawnServer({
        main: distMainUnbundled,
        home: box.home,
        env: {
          CHAT_ENDPOINT_URL: gw.url,
          CHAT_MODEL: 'm',
          NODE_OPTIONS: `--import=${hook}`,
          KLEBB_TEST_MODULE_LOG: log,
        },
      });
      const atStart = loaded(log);
      expect(atStart, 'the log records the server itself').toContain('dist/src/app.js');
      for (const lazy of [
        'dist/src/chat/agent/run-turn.js',
        'dist/src/chat/conversations/title.js',
        'dist/src/chat/gateway/client.js',
        'dist/src/reports/report-pipeline.js',
        'dist/src/reports/report-page.js',
      ]) {
        expect(atStart, `${lazy} is not loaded at start`).not.toContain(lazy);
      }
      expect(atStart.filter((m) => m.startsWith('node_modules/typebox/'))).toEqual([]);
      expect(atStart, 'the OpenAPI plugin is not loaded at start').not.toContain(
        'node_modules/@fastify/swagger/index.js',
      );

      // the OpenAPI document: made on its first request, the same one on the next
      const openapi = await child.api('/api/openapi.json');
      expect(openapi.status).toBe(200);
      expect(openapi.body.openapi).toBe('3.1.0');
      expect(Object.keys(openapi.body.paths)).toContain('/api/manifests');
      expect(loaded(log)).toContain('node_modules/@fastify/swagger/index.js');
      expect((await child.api('/api/openapi.json')).body).toEqual(openapi.body);

      // a first chat turn in a conversation: the loop answers, then the title maker names it
      const conv = await child.api('/api/conversations', { json: {} });
      expect(conv.status).toBe(201);
      gw.script({ kind: 'reply', text: 'Hello.' }, { kind: 'reply', text: 'Greeting' });
      const turn = await child.api('/api/chat', {
        json: { conversationId: conv.body.conversation.id, messages: [{ role: 'user', content: 'hi' }] },
      });
      expect(turn.status).toBe(200);
      expect(turn.body.reply).toBe('Hello.');
      const afterChat = await waitForModule(log, 'dist/src/chat/conversations/title.js');
      expect(afterChat).toContain('dist/src/chat/agent/run-turn.js');
      expect(afterChat).toContain('dist/src/chat/conversations/title.js');
      expect(afterChat).not.toContain('dist/src/reports/report-pipeline.js');

      // a report page: the page module answers (here: its own 404 page)
      const page = await child.api('/report/no-such-report');
      expect(page.status).toBe(404);
      expect(page.text).toContain('No such report.');
      expect(loaded(log)).toContain('dist/src/reports/report-page.js');

      // an upload: accepted, and its reading loads the pipeline
      const up = await child.api('/api/reports/upload', {
        method: 'POST',
        body: Buffer.from('Ferritin 45 ng/mL\n'),
        headers: { 'content-type': 'application/octet-stream', 'x-klebb-filename': 'note.txt' },
      });
      expect(up.status).toBe(202);
      expect(await waitForModule(log, 'dist/src/reports/report-pipeline.js')).toContain(
        'dist/src/reports/report-pipeline.js',
      );
      await child.stop();
    } finally {
      await gw.close();
      box.remove();
      fs.rmSync(log, { force: true });
    }
  });
});
