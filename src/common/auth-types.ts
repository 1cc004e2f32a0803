/**
 * What the sign-in routes tell the browser (docs/API.md "Authentication"), typed once for the
 * server (src/auth/) and the sign-in pages (web/auth/). No Node imports.
 */

/** Where `GET /auth/register/available` says a code (or its absence) leads. */
export interface Availability {
  available: boolean;
  reason: 'bootstrap' | 'invite' | 'add-device' | 'closed' | 'invalid-invite';
  /** For an invalid invite: why. */
  why?: 'unknown' | 'expired' | 'used';
  label?: string;
}
