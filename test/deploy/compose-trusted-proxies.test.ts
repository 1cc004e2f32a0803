/**
 * The compose file's KLEBB_TRUSTED_PROXIES covers nginx wherever Docker puts the compose network.
 * Docker gives a new network a subnet from its default address pools: 172.17.0.0/16 to
 * 172.31.0.0/16, then 192.168.0.0/16 cut in /20s once those are taken by other networks on the
 * host (a machine with a few compose projects); daemon.json's default-address-pools often points
 * at 10.0.0.0/8. Trusting 172.16.0.0/12 alone left nginx untrusted on the 192.168 networks: every
 * visitor then shared nginx's address, in the logs and in the per-visitor sign-in limit, so one
 * visitor's failed attempts locked everybody out. The value is read from the file, taken by the
 * server's own configuration, and checked the way the server checks a request's peer.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { isTrustedProxy } from '../../src/ingest/hae/endpoint-url.js';
import { repoRoot } from '../helpers/sandbox-home.js';

/** The first container address of each subnet Docker's default pools hand out, in order. */
function dockerDefaultNetworkAddresses(): string[] {
  const out: string[] = [];
  for (let b = 17; b <= 31; b++) out.push(`172.${b}.0.2`);
  for (let c = 0; c < 256; c += 16) out.push(`192.168.${c}.2`, `192.168.${c + 15}.254`);
  return out;
}

it('the compose file trusts nginx on every network Docker makes by default, or from a 10/8 pool', () => {
  const compose = fs.readFileSync(path.join(repoRoot, 'deploy/docker/compose.yaml'), 'utf8');
  const value = /^\s*KLEBB_TRUSTED_PROXIES:\s*(\S+)\s*$/m.exec(compose)?.[1];
  expect(value, 'compose.yaml sets KLEBB_TRUSTED_PROXIES for the klebb service').toBeDefined();
  const config = loadConfig({ HEALTH_HOME: '/nonexistent-klebb-home', KLEBB_TRUSTED_PROXIES: value });
  const untrusted = [...dockerDefaultNetworkAddresses(), '10.0.1.2', '10.200.3.4'].filter(
    (a) => !isTrustedProxy(a, config.trustedProxies),
  );
  expect(untrusted).toEqual([]);
  // a public address (a visitor's, never nginx's on this network) stays untrusted
  expect(isTrustedProxy('203.0.113.7', config.trustedProxies)).toBe(false);
  // and Klebb publishes no port of its own there: only containers on the network reach it
  const klebb = compose.slice(compose.indexOf('  klebb:'), compose.indexOf('  nginx:'));
  expect(klebb).not.toMatch(/^\s*ports:/m);
});
