/**
 * The session cookie: `klebb_session`, `HttpOnly`,
 * `SameSite=Lax`, `Path=/`, `Max-Age` of the session lifetime (30 days), and `Secure` whenever
 * HEALTH_ORIGIN is HTTPS. Set and cleared with @fastify/cookie.
 */
import type { FastifyReply } from 'fastify';
import { SESSION_COOKIE, SESSION_LIFETIME_MS } from './auth-limits.js';

const BASE = { path: '/', httpOnly: true, sameSite: 'lax' } as const;

/** Sets the cookie that carries `token`. */
export function setSessionCookie(reply: FastifyReply, token: string, secure: boolean): void {
  reply.setCookie(SESSION_COOKIE, token, { ...BASE, secure, maxAge: SESSION_LIFETIME_MS / 1000 });
}

/** Tells the browser to forget the cookie. */
export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(SESSION_COOKIE, { ...BASE, secure });
}
