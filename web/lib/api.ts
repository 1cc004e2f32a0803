/**
 * The one door to the server's JSON API (docs/API.md). Same-origin requests only; a non-2xx
 * answer becomes an ApiError carrying the server's `{error, code}` so views can show the reason.
 */

import { onSignedOut } from '../auth/session-expiry.js';
import { noteAnswer } from './offline.js';

/** A refused or failed request: `status` 0 means the server could not be reached. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ApiInit {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Sent as `If-Match` (a stale one is answered 412). */
  ifMatch?: string;
  /** Sent as JSON. Leave it out for bodiless POSTs: the server refuses an empty JSON body. */
  json?: unknown;
  /** Extra request headers (e.g. `x-klebb-time-zone` on entry writes). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

const utf8 = new TextDecoder();

/** Calls `path` (e.g. `/api/views/view`) and returns the parsed JSON body. @throws ApiError. */
export async function api<T>(path: string, init: ApiInit = {}): Promise<T> {
  return (await apiWithEtag<T>(path, init)).body;
}

/** Like `api`, also returning the answer's `ETag` header (null when absent). @throws ApiError. */
export async function apiWithEtag<T>(
  path: string,
  init: ApiInit = {},
): Promise<{ body: T; etag: string | null }> {
  const headers: Record<string, string> = { ...init.headers, accept: 'application/json' };
  let body: string | undefined;
  if (init.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.json);
  }
  if (init.ifMatch) headers['if-match'] = init.ifMatch;
  let res: Response;
  try {
    res = await fetch(path, {
      method: init.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      body,
      credentials: 'same-origin',
      signal: init.signal,
    });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiError('The Klebb server cannot be reached.', 0, 'NETWORK');
  }
  noteAnswer(res);
  // bytes decoded in one go rather than res.text(): the same text (UTF-8, BOM dropped, bad bytes as
  // U+FFFD), but for Today's ~2 MB batch read far less work on the page's main thread (Chromium:
  // ~125 ms instead of ~200 ms CPU with the parse; bench/dashboard.ts)
  const text = utf8.decode(await res.arrayBuffer());
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!res.ok) {
    if (res.status === 401) onSignedOut(); // the session ended: to the sign-in page
    const e = (parsed ?? {}) as { error?: unknown; code?: unknown };
    const message = typeof e.error === 'string' ? e.error : `${res.status} ${res.statusText}`;
    throw new ApiError(message, res.status, typeof e.code === 'string' ? e.code : 'HTTP_ERROR');
  }
  return { body: parsed as T, etag: res.headers.get('etag') };
}
