/**
 * A config.json that is not valid JSON (the Health Auto Export token lives in it): the webhook
 * says the settings file cannot be read, with the parser's words but never the file's text, not
 * "ingest disabled" (which sends the person to create a token); the token route answers the same
 * 409 CONFIG_INVALID naming the file, never a 500. The status route, which people and monitors
 * look at to see what is wrong, still answers 200 and reports the problem. The file is left as it was.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type IngestServer, startIngestServer } from './helpers.js';

let srv: IngestServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

describe('a broken config.json', () => {
  it('is named in every answer that reads it', async () => {
    const s = await startIngestServer({ cards: [['steps', 'step_count']] });
    srv = s;
    const file = path.join(s.inst.layout.home, 'config.json');
    const broken = '{"hae": {"token": "Zq9secrettoken"';
    fs.writeFileSync(file, broken);
    const push = await s.api('/api/health-auto-export', {
      json: { data: { metrics: [] } },
      token: s.haeToken,
    });
    expect(push.status).toBe(409);
    expect(push.body.code).toBe('CONFIG_INVALID');
    expect(push.body.error).toMatch(/config\.json cannot be read as JSON \(.+\)/);
    expect(push.body.error).not.toMatch(/create|ingest disabled/i);
    expect(push.text).not.toContain('Zq9secret');
    const token = await s.api('/api/health-auto-export/token');
    expect(token.status).toBe(409);
    expect(token.body.code).toBe('CONFIG_INVALID');
    expect(token.body.error).toContain(file);
    const status = await s.api('/api/health-auto-export/status');
    expect(status.status, status.text).toBe(200);
    expect(status.body.tokenSet).toBeNull();
    expect(status.body.configProblem.code).toBe('CONFIG_INVALID');
    expect(status.body.configProblem.error).toContain(file);
    expect(status.body.endpointUrl).toMatch(/^http/);
    expect(status.text).not.toContain('Zq9secret');
    expect(fs.readFileSync(file, 'utf8')).toBe(broken);
  });
});
