import { describe, expect, it } from 'vitest';
import { listeningOn } from './listen-address.js';

describe('listeningOn', () => {
  it('says where the socket listens, in words', () => {
    expect(listeningOn({ address: '0.0.0.0', family: 'IPv4', port: 8080 })).toBe(
      '0.0.0.0:8080, every IPv4 address of this machine',
    );
    expect(listeningOn({ address: '::', family: 'IPv6', port: 8080 })).toBe(
      '[::]:8080, every address of this machine',
    );
    expect(listeningOn({ address: '127.0.0.1', family: 'IPv4', port: 8080 })).toBe(
      '127.0.0.1:8080, this machine only',
    );
    expect(listeningOn({ address: '::1', family: 'IPv6', port: 80 })).toBe('[::1]:80, this machine only');
    expect(listeningOn({ address: '192.168.1.5', family: 'IPv4', port: 8080 })).toBe('192.168.1.5:8080');
    expect(listeningOn(null)).toBe('an unknown address');
  });
});
