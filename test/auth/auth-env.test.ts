/**
 * The variables of accounts and access (src/auth/auth-env.ts via loadConfig): localhost
 * defaults that work over plain HTTP, and a bad value stops the start naming the variable.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('auth environment', () => {
  it('defaults: relying party "localhost" named after the instance, no fixed origin, folders in HEALTH_HOME', () => {
    const c = loadConfig({ HEALTH_HOME: '/tmp/h', HEALTH_INSTANCE_NAME: 'Home' });
    expect(c.auth).toMatchObject({
      rpName: 'Home',
      rpId: 'localhost',
      origin: undefined,
      secureCookies: false,
      credentialsDir: path.join('/tmp/h', 'credentials'),
      sessionsDir: path.join('/tmp/h', 'sessions'),
    });
  });

  it('HEALTH_ORIGIN sets the relying party id to its host, Secure cookies when https; aliases work', () => {
    const c = loadConfig({ HEALTH_ORIGIN: 'https://Health.Example.org/' });
    expect(c.auth).toMatchObject({
      origin: 'https://health.example.org',
      rpId: 'health.example.org',
      secureCookies: true,
    });
    const parent = loadConfig({
      WEBAUTHN_ORIGIN: 'https://health.example.org:8443',
      WEBAUTHN_RP_ID: 'example.org',
      WEBAUTHN_RP_NAME: 'Us',
    });
    expect(parent.auth).toMatchObject({
      origin: 'https://health.example.org:8443',
      rpId: 'example.org',
      rpName: 'Us',
    });
    expect(loadConfig({ HEALTH_ORIGIN: 'http://localhost:8080' }).auth).toMatchObject({
      secureCookies: false,
      rpId: 'localhost',
    });
  });

  it.each([
    ['HEALTH_ORIGIN', 'health.example.org', {}],
    ['HEALTH_ORIGIN', 'ftp://health.example.org', {}],
    ['HEALTH_ORIGIN', 'https://health.example.org/app', {}],
    ['HEALTH_ORIGIN', 'http://health.example.org', {}],
    ['HEALTH_RP_ID', 'https://example.org', {}],
    ['HEALTH_RP_ID', 'other.example', { HEALTH_ORIGIN: 'https://health.example.org' }],
    ['HEALTH_RP_ID', '127.0.0.1', {}],
    ['HEALTH_RP_ID', 'health.example.org', {}],
    ['KLEBB_AUTH_RATE_LIMIT', 'lots', {}],
    ['KLEBB_AGENT_RATE_LIMIT', '-1', {}],
  ])('a bad %s=%j stops the start naming it', (name, value, extra) => {
    let err: unknown;
    try {
      loadConfig({ ...extra, [name]: value });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).variable).toBe(name);
    expect((err as Error).message).toContain(name);
  });
});
