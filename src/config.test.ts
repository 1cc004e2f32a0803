import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('defaults: ~/klebb, port 8080, chat agent name and emoji of the seed', () => {
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
    const c = loadConfig({ HEALTH_HOME: '~/x', HEALTH_PORT: '9000', AGENT_API_TOKEN: 't', HEALTH_INSTANCE_NAME: 'Home' });
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

  it('an empty AGENT_API_TOKEN counts as unset (no empty bearer can match)', () => {
    expect(loadConfig({ AGENT_API_TOKEN: '  ' }).agentApiToken).toBeUndefined();
  });
});
