/**
 * Codes in query strings never reach the request log (secrets "never appear in logs").
 */
import { describe, expect, it } from 'vitest';
import { redactPathAndQuery, redactUrl } from '../../src/auth/log-redaction.js';

describe('redactUrl', () => {
  it('blanks code, token and secret query values and keeps the rest', () => {
    expect(redactUrl('/auth/register/available?code=user-abc123')).toBe(
      '/auth/register/available?code=[redacted]',
    );
    expect(redactUrl('/register?x=1&code=abc&y=2')).toBe('/register?x=1&code=[redacted]&y=2');
    expect(redactUrl('/a?TOKEN=t&secret=s&after=5')).toBe('/a?TOKEN=[redacted]&secret=[redacted]&after=5');
    expect(redactUrl('/api/chat/turn/c1?after=3')).toBe('/api/chat/turn/c1?after=3');
    expect(redactUrl('/decode?codex=1')).toBe('/decode?codex=[redacted]');
    // any name containing token/secret/code/key/password/api, any case, after percent-decoding
    expect(redactUrl('/a?api_key=1&Password=2&refresh_token=3&my%54oken=4&%61pi=5&n=6#f')).toBe(
      '/a?api_key=[redacted]&Password=[redacted]&refresh_token=[redacted]&my%54oken=[redacted]&%61pi=[redacted]&n=6#f',
    );
    expect(redactUrl('/a?hash=1&user=2')).toBe('/a?hash=1&user=2');
  });
});

describe('redactPathAndQuery', () => {
  it('blanks token-shaped path segments as well as secret query values', () => {
    expect(redactPathAndQuery('/api/health-auto-export/Zk3u9QeLr0aB7cD2eF4gH6iJ8kL')).toBe(
      '/api/health-auto-export/[redacted]',
    );
    expect(redactPathAndQuery('/setup/abc123def456ghi789jkl012mno?code=x')).toBe(
      '/setup/[redacted]?code=[redacted]',
    );
    // card ids, route names and short values stay readable
    expect(redactPathAndQuery('/api/manifests/blood-pressure-morning-readings/rows')).toBe(
      '/api/manifests/blood-pressure-morning-readings/rows',
    );
    expect(redactPathAndQuery('/api/manifests/weight/entries/12')).toBe('/api/manifests/weight/entries/12');
  });
});
