/**
 * The DNS look-up of push requests: a push endpoint's host name is judged by the addresses it
 * resolves to when the message is sent, not only as written when it was subscribed, so a name
 * that later resolves to a loopback, private or link-local address (DNS rebinding) is not
 * connected to. The check is on the very addresses the connection then uses.
 */
import dns from 'node:dns';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { forbiddenAddress } from './endpoint-host.js';

/** The error code of a look-up refused here (the sender treats it as refused, never retried). */
export const PRIVATE_RESOLUTION = 'EPUSHPRIVATE';

/** A `lookup` for net.connect that fails with PRIVATE_RESOLUTION when any address is forbidden. */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      for (const a of addresses) {
        const problem = forbiddenAddress(a.address, allowPrivate);
        if (problem) {
          const refused = Object.assign(
            new Error(`push endpoint host ${hostname} resolves to ${a.address}, which ${problem}`),
            { code: PRIVATE_RESOLUTION },
          );
          return callback(refused, '', 0);
        }
      }
      if ((options as { all?: boolean }).all)
        return (callback as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      const [first] = addresses;
      callback(null, first.address, first.family);
    });
  };
}

/** The HTTPS agent of push requests: guardedLookup, one per allowance. */
export function guardedAgent(allowPrivate: boolean): https.Agent {
  return new https.Agent({ lookup: guardedLookup(allowPrivate), keepAlive: true });
}
