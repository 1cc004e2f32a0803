/**
 * The start message's account of where the server listens, from the socket's own address. What
 * `listen()` returns is one URL Fastify picked: `http://127.0.0.1:8080` for a server bound to every
 * address (`HOST=0.0.0.0`, the default), which read as "this machine only" while phones on the
 * network could reach it.
 */
import type { AddressInfo } from 'node:net';

/**
 * `0.0.0.0:8080, every IPv4 address of this machine`, `[::]:8080, every address of this
 * machine`, `127.0.0.1:8080, this machine only` or `192.168.1.5:8080`: the address and port the
 * server listens on, in words. A string address (a Unix socket path) is given as it is.
 */
export function listeningOn(bound: AddressInfo | string | null): string {
  if (bound === null) return 'an unknown address';
  if (typeof bound === 'string') return bound;
  const { address, port, family } = bound;
  const host = family === 'IPv6' || address.includes(':') ? `[${address}]` : address;
  const where = `${host}:${port}`;
  if (address === '0.0.0.0') return `${where}, every IPv4 address of this machine`;
  if (address === '::') return `${where}, every address of this machine`;
  if (address === '::1' || address.startsWith('127.')) return `${where}, this machine only`;
  return where;
}
