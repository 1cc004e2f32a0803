/**
 * Conversation titles from a side call: after an exchange in an untitled conversation, ask the same gateway for 2 to 6
 * plain words. It never blocks or fails the turn; a failure leaves the conversation untitled,
 * and a later turn tries again.
 */

import { headGraphemes } from '../../common/graphemes.js';
import { oneLineTitle } from '../../common/title-text.js';
import { MAX_GENERATED_TITLE_CHARS, TITLE_TIMEOUT_MS } from '../../limits.js';
import { callGateway, type GatewayConfig } from '../gateway/client.js';

/** The instruction of the side call (our own words). */
export const TITLE_INSTRUCTION =
  'Write a title for this conversation: two to six plain words naming its topic. ' +
  'Reply with the title only: no quotes, no emoji, no punctuation at the end, and do not mention the assistant.';

/**
 * Cleans a model's title: one line (oneLineTitle), surrounding straight or curly quotes removed,
 * trailing punctuation dropped, cut to 60 characters; empty → null.
 */
export function cleanGeneratedTitle(raw: string): string | null {
  let t = oneLineTitle(raw);
  t = t.replace(/^(title|titel)\s*:\s*/i, '');
  t = t.replace(/^["'“”‘’«»`]+|["'“”‘’«»`]+$/g, '').trim();
  t = t.replace(/[.!?:;,]+$/, '').trim();
  if (!t) return null;
  return headGraphemes(t, MAX_GENERATED_TITLE_CHARS).trim();
}

/**
 * Asks the gateway for a title from the first user message and the reply (each cut to 500
 * characters). Resolves to the cleaned title, or null on any failure (never throws).
 */
export async function generateTitle(
  gateway: Omit<GatewayConfig, 'callTimeoutMs' | 'idleTimeoutMs'>,
  firstUserMessage: string,
  reply: string,
): Promise<string | null> {
  try {
    const result = await callGateway(
      { ...gateway, callTimeoutMs: TITLE_TIMEOUT_MS, maxRetries: 0 },
      {
        messages: [
          { role: 'system', content: TITLE_INSTRUCTION },
          {
            role: 'user',
            content: `User: ${headGraphemes(firstUserMessage, 500)}\n\nAssistant: ${headGraphemes(reply, 500)}`,
          },
        ],
        stream: false,
      },
    );
    return cleanGeneratedTitle(result.text);
  } catch {
    return null;
  }
}
