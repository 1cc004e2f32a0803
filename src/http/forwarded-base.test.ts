import { describe, expect, it } from 'vitest';
import { forwardedBase, forwardedElement } from './forwarded-base.js';

describe('forwardedBase', () => {
  it.each([
    [
      { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'health.example.org' },
      'https://health.example.org',
    ],
    // a chain that appends: the outermost proxy's values come first
    [
      { 'x-forwarded-proto': 'https,http', 'x-forwarded-host': 'health.example.org' },
      'https://health.example.org',
    ],
    [
      { 'x-forwarded-proto': 'https, http', 'x-forwarded-host': 'health.example.org, klebb:8080' },
      'https://health.example.org',
    ],
    [
      { 'x-forwarded-proto': ['https', 'http'], 'x-forwarded-host': 'health.example.org' },
      'https://health.example.org',
    ],
    // the scheme's own port drops out; another is kept
    [
      { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'health.example.org:443' },
      'https://health.example.org',
    ],
    [
      { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'Health.Example.org:8443' },
      'https://health.example.org:8443',
    ],
    // a host without its port (nginx's $host) takes X-Forwarded-Port
    [
      { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'health.example.org', 'x-forwarded-port': '8443' },
      'https://health.example.org:8443',
    ],
    [
      {
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'health.example.org:8443',
        'x-forwarded-port': '443',
      },
      'https://health.example.org:8443',
    ],
    [
      { 'x-forwarded-proto': 'https', host: 'health.example.org', 'x-forwarded-port': '443' },
      'https://health.example.org',
    ],
    // RFC 7239, its first element; quoted values, any case
    [
      {
        forwarded:
          'for=192.0.2.60;proto=https;host="health.example.org:8443", for=10.0.0.1;proto=http;host=klebb',
        host: 'klebb:8080',
      },
      'https://health.example.org:8443',
    ],
    [
      { forwarded: 'For="[2001:db8:cafe::17]:4711";Proto=HTTPS;Host=Health.Example.org', host: 'klebb' },
      'https://health.example.org',
    ],
    [{ forwarded: 'proto=https', host: 'health.example.org' }, 'https://health.example.org'],
    // the X- headers win over Forwarded where both speak
    [
      {
        forwarded: 'proto=http;host=a.example',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'b.example',
      },
      'https://b.example',
    ],
    [{ 'x-forwarded-ssl': 'on', host: 'health.example.org' }, 'https://health.example.org'],
    [{ 'front-end-https': 'On', 'x-forwarded-host': 'health.example.org' }, 'https://health.example.org'],
    [
      { 'x-forwarded-host': 'health.example.org.', 'x-forwarded-proto': 'https' },
      'https://health.example.org',
    ],
    [
      { 'x-forwarded-host': '[2001:db8::1]:8443', 'x-forwarded-proto': 'https' },
      'https://[2001:db8::1]:8443',
    ],
  ])('%j → %s', (headers, want) => {
    expect(forwardedBase(headers)).toBe(want);
  });

  it.each([
    [{ host: 'klebb:8080' }],
    [{ 'x-forwarded-proto': 'javascript', host: 'a.example' }],
    [{ 'x-forwarded-host': 'evil.example/path', 'x-forwarded-proto': 'https' }],
    [{ 'x-forwarded-host': 'user@evil.example', 'x-forwarded-proto': 'https' }],
    [{ 'x-forwarded-proto': 'https', 'x-forwarded-host': 'a.example', 'x-forwarded-port': '443abc' }],
    [{ 'x-forwarded-proto': 'https', 'x-forwarded-host': 'a.example', 'x-forwarded-port': '99999' }],
  ])('%j → nothing', (headers) => {
    expect(forwardedBase(headers)).toBeUndefined();
  });
});

describe('forwardedElement', () => {
  it('reads the first element only, quoted commas inside it', () => {
    expect(forwardedElement('a=b;C="d,e";f=g, h=i')).toEqual({ a: 'b', c: 'd,e', f: 'g' });
    expect(forwardedElement(['proto=https', 'proto=http'])).toEqual({ proto: 'https' });
    expect(forwardedElement(undefined)).toEqual({});
  });
});
