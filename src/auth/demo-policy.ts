/**
 * Demo mode (`KLEBB_DEMO=1`, REFERENCE section 10): a public instance anyone may look around in
 * after "Enter the demo" (`POST /auth/demo-login`). What would change the instance for the next
 * visitor, reach the outside world, or mint access is switched off, decided here by the matched
 * route (never by the raw URL text):
 * - passkey, invite, setup and token routes: 410 (their handlers refuse too);
 * - hiding cards (enable/disable, `PATCH` of `meta.enabled`), making cards from templates,
 *   uploads, export and import: 403;
 * - deleting or creating cards, setting the time zone, the Health Auto Export token: 403;
 * - conversations are not kept (lists empty, writes 403), so no visitor reads another's;
 * - `POST /api/chat`: a fixed canned reply, no outbound request; `GET /api/chat/status` says
 *   `{configured: true, demo: true}`; voice routes 503; push routes 410; `/sw.js` 404.
 */
import { KlebbError } from '../errors.js';

/** The canned chat answer of the demo. */
export const DEMO_CHAT_REPLY =
  'This is a demo, so the assistant is switched off here and nothing you type leaves this page. ' +
  'On your own Klebb, the assistant reads and updates your cards for you.';

/** What demo mode does with one request: refuse it, answer it, or let it through (null). */
export type DemoDecision =
  | { refuse: KlebbError }
  | { answer: 'chat' | 'chat-status' }
  | { answer: 'json'; body: unknown }
  | null;

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
  // a change every later visitor would see (issue 8 attack report, item 3)
  if (method === 'DELETE' && url === '/api/manifests/:id') {
    return refuse(403, 'Cards cannot be deleted in this demo');
  }
  if (method === 'POST' && url === '/api/manifests') {
    return refuse(403, 'New cards are switched off in this demo');
  }
  if (method === 'POST' && url === '/api/user/tz') {
    return refuse(403, 'The time zone cannot be changed in this demo');
  }
  if (url.startsWith('/api/health-auto-export/token')) {
    return refuse(403, 'The Health Auto Export token is switched off in this demo');
  }
  // conversations are not kept: every visitor shares the demo account, so one visitor's
  // conversations would be the next one's to read
  const conv = demoConversations(method, url);
  if (conv) return conv;
  if (method === 'POST' && url === '/api/chat') return { answer: 'chat' };
  if (method === 'GET' && url === '/api/chat/status') return { answer: 'chat-status' };
  return null;
}

/** Conversations in demo mode: reads answer empty, writes are refused (nothing is stored). */
function demoConversations(method: string, url: string): DemoDecision {
  const isConv = url === '/api/conversations' || url.startsWith('/api/conversations/');
  const isLegacy = url === '/api/chat/history' || url.startsWith('/api/chat/history/');
  if (!isConv && !isLegacy) return null;
  if (method === 'GET' && url === '/api/conversations') return { answer: 'json', body: { conversations: [] } };
  if (method === 'POST' && url === '/api/conversations/search') {
    return { answer: 'json', body: { conversations: [] } };
  }
  if (method === 'GET' && url === '/api/chat/history') return { answer: 'json', body: { messages: [] } };
  if (method === 'POST' && url === '/api/chat/history/fold') {
    return { answer: 'json', body: { conversationId: null } };
  }
  if (method === 'GET') return refuse(404, 'No such conversation (conversations are not kept in this demo)');
  return refuse(403, 'Conversations are not kept in this demo');
}
