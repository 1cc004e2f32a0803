import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('defaults: ~/klebb, port 8080, default chat agent name and emoji', () => {
    const c = loadConfig({});
    expect(c.home).toBe(path.join(os.homedir(), 'klebb'));
    expect(c.dataDir).toBe(path.join(os.homedir(), 'klebb', 'data'));
    expect(c.port).toBe(8080);
    expect(c.host).toBe('0.0.0.0');
    expect(c.chatAgentName).toBe('Chat');
    expect(c.chatAgentEmoji).toBe('💬');
    expect(c.agentApiToken).toBeUndefined();
    expect(c.bodyLimitBytes).toBe(10 * 1024 * 1024);
  });

  it('reads the variables, with HEALTH_PORT as an alias of PORT and ~ expanded', () => {
    const c = loadConfig({
      HEALTH_HOME: '~/x',
      HEALTH_PORT: '9000',
      AGENT_API_TOKEN: 't',
      HEALTH_INSTANCE_NAME: 'Home',
    });
    expect(c.home).toBe(path.join(os.homedir(), 'x'));
    expect(c.port).toBe(9000);
    expect(c.agentApiToken).toBe('t');
    expect(c.instanceName).toBe('Home');
    expect(loadConfig({ PORT: '81', HEALTH_PORT: '82' }).port).toBe(81);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['PORT', '80.5'],
    ['KLEBB_BODY_LIMIT_BYTES', '10MB'],
    ['KLEBB_DEMO', 'maybe'],
    ['KLEBB_HAE_MAX_BYTES', '10MB'],
    ['KLEBB_APPLE_HEALTH_MAX_BYTES', '-1'],
    ['HEALTH_WATCH_POLL', 'sometimes'],
  ])('a bad %s=%j throws a ConfigError naming it', (name, value) => {
    let err: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).variable).toBe(name);
    expect((err as Error).message).toContain(name);
  });

  it('a switch takes 1, true, yes, on or 0, false, no, off in any case; anything else names them all', () => {
    for (const on of ['1', 'true', 'yes', 'on', 'TRUE', 'Yes', ' on ']) {
      expect(loadConfig({ KLEBB_DEMO: on }).demo, on).toBe(true);
      expect(loadConfig({ CHAT_TLS_VERIFY: on }).chat.tlsVerify, on).toBe(true);
    }
    for (const off of ['0', 'false', 'no', 'off', 'FALSE', 'No', ' 0']) {
      expect(loadConfig({ KLEBB_DEMO: off }).demo, off).toBe(false);
      expect(loadConfig({ CHAT_TLS_VERIFY: off }).chat.tlsVerify, off).toBe(false);
      expect(loadConfig({ KLEBB_TRUST_LOOPBACK: off }).trustLoopback, off).toBe(false);
    }
    for (const bad of ['2', 'enabled', 'y', 'oui']) {
      expect(() => loadConfig({ KLEBB_DEMO: bad })).toThrow(
        `KLEBB_DEMO: must be 1, true, yes, on (on) or 0, false, no, off (off), got "${bad}"`,
      );
    }
  });

  it('HEALTH_WATCH_POLL: auto when unset or auto, else a switch', () => {
    expect(loadConfig({}).watchPoll).toBe('auto');
    expect(loadConfig({ HEALTH_WATCH_POLL: ' Auto ' }).watchPoll).toBe('auto');
    expect(loadConfig({ HEALTH_WATCH_POLL: 'on' }).watchPoll).toBe(true);
    expect(loadConfig({ HEALTH_WATCH_POLL: '0' }).watchPoll).toBe(false);
  });

  it('an empty AGENT_API_TOKEN counts as unset (no empty bearer can match)', () => {
    expect(loadConfig({ AGENT_API_TOKEN: '  ' }).agentApiToken).toBeUndefined();
  });

  it('chat: seed defaults, chat off without an endpoint', () => {
    const c = loadConfig({}).chat;
    expect(c).toEqual({
      endpointUrl: undefined,
      apiKey: undefined,
      model: '',
      systemPrompt: undefined,
      maxTurns: 36,
      iterTimeoutMs: 180000,
      turnDeadlineMs: 720000,
      promptCache: true,
      tlsVerify: true,
    });
    expect(
      loadConfig({ CHAT_ITER_TIMEOUT_MS: '0', CHAT_TURN_DEADLINE_MS: '0', CHAT_PROMPT_CACHE: '0' }).chat,
    ).toMatchObject({
      iterTimeoutMs: 0,
      turnDeadlineMs: 0,
      promptCache: false,
    });
  });

  it('chat: legacy CHAT_GATEWAY_* compose the URL with a deprecation warning', () => {
    const c = loadConfig({
      CHAT_GATEWAY_HOST: 'localhost',
      CHAT_GATEWAY_TOKEN: 'k',
      CHAT_GATEWAY_MODEL: 'm',
    });
    expect(c.chat).toMatchObject({
      endpointUrl: 'http://localhost:8787/v1/chat/completions',
      apiKey: 'k',
      model: 'm',
    });
    expect(c.warnings.join()).toContain('deprecated');
    const remote = loadConfig({ CHAT_GATEWAY_HOST: 'gw.example', CHAT_GATEWAY_PORT: '443' });
    expect(remote.chat.endpointUrl).toBe('https://gw.example:443/v1/chat/completions');
    const canonical = loadConfig({ CHAT_ENDPOINT_URL: 'http://a/x', CHAT_GATEWAY_HOST: 'b' });
    expect(canonical.chat.endpointUrl).toBe('http://a/x');
    expect(canonical.warnings).toEqual([]);
  });

  it('chat: refuses an iteration budget at or over the 540 s hop ceiling, saying why', () => {
    expect(() => loadConfig({ CHAT_ITER_TIMEOUT_MS: '540000' })).toThrow(/CHAT_ITER_TIMEOUT_MS.*540 s/);
    expect(loadConfig({ CHAT_ITER_TIMEOUT_MS: '539999' }).chat.iterTimeoutMs).toBe(539999);
    expect(() => loadConfig({ CHAT_ENDPOINT_URL: 'ftp://x' })).toThrow(ConfigError);
    expect(() => loadConfig({ CHAT_ENDPOINT_URL: 'not a url' })).toThrow(/CHAT_ENDPOINT_URL/);
    expect(() => loadConfig({ HEALTH_SYSTEM_PROMPT_FILE: '/nonexistent/prompt.txt' })).toThrow(
      /HEALTH_SYSTEM_PROMPT_FILE/,
    );
  });
});
