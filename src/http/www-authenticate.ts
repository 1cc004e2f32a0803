/**
 * The `WWW-Authenticate` challenge every 401 answer carries (RFC 9110 §11.6.1, RFC 6750 §3):
 * `Bearer realm="klebb"`, plus `error="invalid_token"` when a bearer token was sent and refused,
 * or `error="invalid_request"` when an `Authorization` header was sent that is not a bearer
 * token at all. A request without credentials gets the bare challenge (RFC 6750 §3.1: no error
 * code when the request carried no authentication).
 */
import { bearerOf } from '../auth/principal.js';

/** The realm named in every challenge. */
export const AUTH_REALM = 'klebb';

/** The challenge for a 401 answer to a request whose `Authorization` header was `authorization`. */
export function bearerChallenge(authorization: string | undefined): string {
  const base = `Bearer realm="${AUTH_REALM}"`;
  if (authorization === undefined) return base;
  if (bearerOf(authorization) === null) return `${base}, error="invalid_request"`;
  return `${base}, error="invalid_token", error_description="the token is not valid"`;
}
