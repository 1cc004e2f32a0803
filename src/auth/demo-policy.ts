/**
 * Demo mode (`KLEBB_DEMO=1`, REFERENCE section 10): a public instance anyone may look around in
 * after "Enter the demo" (`POST /auth/demo-login`). What would change the instance for the next
 * visitor, reach the outside world, or mint access is switched off, decided here by the matched
 * route (never by the raw URL text):
 * - passkey, invite, setup and token routes: 410 (their handlers refuse too);
 * - hiding cards (enable/disable, `PATCH` of `meta.enabled`), making cards from templates,
 *   uploads, export and import: 403;
 * - `POST /api/chat`: a fixed canned reply, no outbound request; `GET /api/chat/status` says
 *   `{configured: true, demo: true}`; voice routes 503; push routes 410; `/sw.js` 404.
 */
import { KlebbError } from '../errors.js';

/** The canned chat answer of the demo. */
export const DEMO_CHAT_REPLY =
  'This is a demo, so the assistant is switched off here and nothing you type leaves this page. ' +
  'On your own Klebb, the assistant reads and updates your cards for you.';

/** What demo mode does with one request: refuse it, answer it, or let it through (null). */
export type DemoDecision = { refuse: KlebbError } | { answer: 'chat' | 'chat-status' } | null;

const refuse = (status: number, message: string) => ({
  refuse: new KlebbError(status, 'DEMO_MODE', message),
});

/**
 * Decides a request in demo mode.
 * @param method HTTP method; @param url the matched route's pattern (`/api/manifests/:id`);
 * @param body the parsed body (for `PATCH` of `meta.enabled`).
 */
export function demoDecision(method: string, url: string | undefined, body: unknown): DemoDecision {
  if (!url) return null;
  if (url === '/sw.js') return refuse(404, 'no service worker in the demo');
  if (url.startsWith('/api/voice/')) return refuse(503, 'Voice is switched off in this demo');
  if (url.startsWith('/api/push/')) return refuse(410, 'Notifications are switched off in this demo');
  if (
    url.startsWith('/api/credentials') ||
    url.startsWith('/api/tokens') ||
    url === '/api/invites' ||
    url === '/api/admin/invites' ||
    url.startsWith('/auth/register/') ||
    url.startsWith('/auth/login/')
  ) {
    return refuse(410, 'Passkeys, invites and tokens are switched off in this demo');
  }
  if (method === 'POST' && /^\/api\/settings\/cards\/:[^/]+\/(enable|disable)$/.test(url)) {
    return refuse(403, 'Cards cannot be hidden or shown in this demo');
  }
  if (method === 'POST' && url === '/api/settings/cards/from-template') {
    return refuse(403, 'New cards from templates are switched off in this demo');
  }
  if (method === 'PATCH' && url === '/api/manifests/:id') {
    const meta = (body as { meta?: unknown } | null)?.meta;
    if (meta && typeof meta === 'object' && Object.hasOwn(meta, 'enabled')) {
      return refuse(403, 'Cards cannot be hidden or shown in this demo');
    }
  }
  if (url.startsWith('/api/export') || url.startsWith('/api/import/') || url === '/api/reports/upload') {
    return refuse(403, 'Uploads, export and import are switched off in this demo');
  }
  if (method === 'POST' && url === '/api/chat') return { answer: 'chat' };
  if (method === 'GET' && url === '/api/chat/status') return { answer: 'chat-status' };
  return null;
}
