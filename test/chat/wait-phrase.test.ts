import { describe, expect, it } from 'vitest';
import { gatewayFailure } from '../../src/chat/agent/copy.js';
import { GatewayError } from '../../src/chat/gateway/gateway-error.js';

function busy(retryAfterMs: number): string {
  const err = new GatewayError('rate_limited', 'rate limited', { retryable: true, retryAfterMs });
  return gatewayFailure(err).error;
}

describe('rate-limited reply wording', () => {
  it('says seconds under a minute, then minutes and hours', () => {
    expect(busy(30_000)).toContain('in about 30 seconds.');
    expect(busy(300_000)).toContain('in about 5 minutes.');
    expect(busy(3_600_000)).toContain('in about an hour.');
    expect(busy(3_600_000)).not.toContain('3600');
  });
});
