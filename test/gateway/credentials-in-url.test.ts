// A model behind a reverse proxy that asks for HTTP Basic authentication (nginx or Caddy with
// basic_auth in front of Ollama or llama.cpp) is reached by writing the user and password into
// the endpoint URL, as curl and browsers take them: https://user:password@host/v1/chat/completions.
// Node's request ignores the URL's credentials, so the proxy answered every request 401 and the
// person was told their API key was refused, with no key involved.
import { expect, it } from 'vitest';
import { callGateway } from '../../src/chat/gateway/client.js';
import type { RecordedRequest, ScriptStep } from '../helpers/scripted-gateway.js';
import { configFor, userSays } from './support.js';
import { scriptedGatewayPerTest } from './wire.js';

const gw = scriptedGatewayPerTest();

/** nginx's answer to a request without the right Basic credentials. */
const authRequired: ScriptStep = {
  kind: 'error',
  status: 401,
  headers: { 'Content-Type': 'text/html', 'WWW-Authenticate': 'Basic realm="ollama"' },
  body: '<html>\r\n<head><title>401 Authorization Required</title></head>\r\n<body>\r\n<center><h1>401 Authorization Required</h1></center>\r\n<hr><center>nginx/1.24.0</center>\r\n</body>\r\n</html>\r\n',
};

/** A proxy that lets through only `user`:`password`. */
const basicAuth =
  (user: string, password: string) =>
  (request: RecordedRequest): ScriptStep =>
    request.headers.authorization === `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`
      ? { kind: 'reply', text: 'Let in.' }
      : authRequired;

/** The scripted gateway's URL with `userinfo` written into it. */
const withUserinfo = (userinfo: string) => gw.url.replace('http://', `http://${userinfo}@`);

for (const stream of [true, false]) {
  it(`the user and password in the URL are sent as Basic credentials (stream ${stream})`, async () => {
    gw.script({ kind: 'decide', choose: basicAuth('bob', 'hunter2') });
    const cfg = configFor(withUserinfo('bob:hunter2'), { apiKey: undefined });
    expect((await callGateway(cfg, { messages: userSays('hi'), stream })).text).toBe('Let in.');
  });
}

it('percent-encoded characters of the user and password are sent as the characters they stand for', async () => {
  gw.script({ kind: 'decide', choose: basicAuth('me@home', 'p:ss wörd') });
  const cfg = configFor(withUserinfo('me%40home:p%3Ass%20w%C3%B6rd'), { apiKey: undefined });
  expect((await callGateway(cfg, { messages: userSays('hi'), stream: true })).text).toBe('Let in.');
});

it('the URL credentials take the Authorization header a key would use; the path and query go as given', async () => {
  gw.script({ kind: 'decide', choose: basicAuth('bob', '') });
  const cfg = configFor(`${withUserinfo('bob')}?api-version=1`, { apiKey: 'sk-test' });
  expect((await callGateway(cfg, { messages: userSays('hi'), stream: true })).text).toBe('Let in.');
  expect(gw.requests[0].path).toBe('/v1/chat/completions?api-version=1');
});

it('a URL without credentials sends the key as a bearer token, as before', async () => {
  gw.script({ kind: 'reply', text: 'ok' });
  await callGateway(configFor(gw.url), { messages: userSays('hi'), stream: true });
  expect(gw.requests[0].headers.authorization).toBe('Bearer sk-test');
});

it('a redirect to another path of the same host keeps the credentials', async () => {
  gw.script(
    {
      kind: 'error',
      status: 308,
      headers: { Location: `${gw.origin}/api/v1/chat/completions` },
      body: '',
    },
    { kind: 'decide', choose: basicAuth('bob', 'hunter2') },
  );
  const cfg = configFor(withUserinfo('bob:hunter2'), { apiKey: undefined });
  expect((await callGateway(cfg, { messages: userSays('hi'), stream: true })).text).toBe('Let in.');
  expect(gw.requests[1].path).toBe('/api/v1/chat/completions');
});
