/**
 * Demo mode (`KLEBB_DEMO=1`): a public instance anyone may look around in
 * after "Enter the demo" (`POST /auth/demo-login`). What would change the instance for the next
 * visitor, reach the outside world, or mint access is switched off, decided here by the matched
 * route (never by the raw URL text):
 * - passkey, invite, setup and token routes: 410 (their handlers refuse too);
 * - conversations are not kept (lists empty, writes 403), so no visitor reads another's;
 * - `POST /api/chat`: a fixed canned reply, no outbound request; `GET /api/chat/status` says
 *   `{configured: true, demo: true}`; voice routes 503; push routes 410; `/sw.js` 404;
 * - every other request that may change something (any method but GET, HEAD and OPTIONS) is
 *   403 `DEMO_MODE` unless its route is on DEMO_WRITE_ALLOWED: closed by default, so a route
 *   added later is refused in the demo until someone decides it is harmless there. That covers
 *   uploads, export and import (Apple Health import, the HAE webhook, report uploads), every
 *   manifest change (PATCH of a manifest, creating, deleting, reordering cards, enable/disable,
 *   cards from templates, HAE discoveries), the time zone and the Health Auto Export token.
 * Reads are let through, except reading the Health Auto Export token (403).
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
 * The write routes (`METHOD pattern`) a demo session may call: signing in and out of the demo,
 * logging (entries and check-off rows of a card's data, docs/API.md keeps logging
 * open), stopping a chat turn and sending feedback (it reaches the operator, not the next
 * visitor). Everything else that writes is 403 `DEMO_MODE`. Conversation routes and
 * `POST /api/chat` are answered before this list is consulted.
 */
export const DEMO_WRITE_ALLOWED: ReadonlySet<string> = new Set([
  'POST /auth/demo-login',
  'POST /auth/logout',
  'POST /api/manifests/:id/entries',
  'PUT /api/manifests/:id/entries/:index',
  'DELETE /api/manifests/:id/entries/:index',
  'POST /api/manifests/:id/rows',
  'PATCH /api/manifests/:id/rows',
  'DELETE /api/manifests/:id/rows',
  'DELETE /api/chat/turn/:conversationId',
  'POST /api/feedback',
]);

/** Why a write outside DEMO_WRITE_ALLOWED is refused, by route, for a message that says what is off. */
function refusedWriteMessage(url: string): string {
  if (
    /^\/api\/settings\/cards\/:[^/]+\/(enable|disable)$/.test(url) ||
    url.startsWith('/api/manifests') ||
    url === '/api/health-auto-export/cards'
  ) {
    return 'Cards cannot be changed, hidden, shown, created, deleted or reordered in this demo';
  }
  if (url.startsWith('/api/settings/cards/')) return 'New cards from templates are switched off in this demo';
  if (url.startsWith('/api/health-auto-export/token')) {
    return 'The Health Auto Export token is switched off in this demo';
  }
  if (url === '/api/user/tz') return 'The time zone cannot be changed in this demo';
  if (url.includes('import') || url.includes('export') || url.includes('upload')) {
    return 'Uploads, export and import are switched off in this demo';
  }
  return 'This change is switched off in this demo';
}

/**
 * Decides a request in demo mode.
 * @param method HTTP method; @param url the matched route's pattern (`/api/manifests/:id`);
 * undefined for a path no route matched (then nothing is decided: it is a 404).
 */
export function demoDecision(method: string, url: string | undefined): DemoDecision {
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
  if (url.startsWith('/api/health-auto-export/token')) {
    return refuse(403, 'The Health Auto Export token is switched off in this demo');
  }
  // conversations are not kept: every visitor shares the demo account, so one visitor's
  // conversations would be the next one's to read
  const conv = demoConversations(method, url);
  if (conv) return conv;
  if (method === 'POST' && url === '/api/chat') return { answer: 'chat' };
  if (method === 'GET' && url === '/api/chat/status') return { answer: 'chat-status' };
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') return null;
  if (DEMO_WRITE_ALLOWED.has(`${method} ${url}`)) return null;
  return refuse(403, refusedWriteMessage(url));
}

/** Conversations in demo mode: reads answer empty, writes are refused (nothing is stored). */
function demoConversations(method: string, url: string): DemoDecision {
  const isConv = url === '/api/conversations' || url.startsWith('/api/conversations/');
  const isLegacy = url === '/api/chat/history' || url.startsWith('/api/chat/history/');
  if (!isConv && !isLegacy) return null;
  if (method === 'GET' && url === '/api/conversations')
    return { answer: 'json', body: { conversations: [] } };
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
