import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CAPABILITIES,
  knownCapabilities,
  ProviderMemory,
  resolveCapabilities,
} from './provider-capabilities.js';
import { buildRequestBody } from './request.js';
import type { ChatMessage } from './types.js';

const system: ChatMessage = {
  role: 'system',
  content: [
    { type: 'text', text: 'A', cache_control: { type: 'ephemeral' } },
    { type: 'text', text: 'B' },
  ],
};

describe('provider capabilities', () => {
  it('knows Groq wants string system content', () => {
    const caps = resolveCapabilities(
      new URL('https://api.groq.com/openai/v1/chat/completions'),
      'llama',
      undefined,
      new ProviderMemory(),
    );
    expect(caps.systemContentString).toBe(true);
    expect(caps.cacheControl).toBe(false);
  });
  it('lists cache_control only for known provider/model pairs', () => {
    expect(knownCapabilities('openrouter.ai', 'anthropic/claude-sonnet-4').cacheControl).toBe(true);
    expect(knownCapabilities('openrouter.ai', 'anthropic/claude-3-haiku').cacheControl).toBeUndefined();
    expect(knownCapabilities('gateway.local', 'anything')).toEqual({});
    expect(DEFAULT_CAPABILITIES.cacheControl).toBe(false);
  });
  it('learned refusals beat operator overrides', () => {
    const memory = new ProviderMemory();
    const url = new URL('http://gw.local/v1');
    memory.learn(url.origin, 'm', { cacheControl: false });
    expect(resolveCapabilities(url, 'm', { cacheControl: true }, memory).cacheControl).toBe(false);
    expect(resolveCapabilities(url, 'other', { cacheControl: true }, memory).cacheControl).toBe(true);
  });
});

describe('buildRequestBody', () => {
  it('keeps system parts with breakpoints when cache_control is supported', () => {
    const body = buildRequestBody({ messages: [system] }, 'm', {
      ...DEFAULT_CAPABILITIES,
      cacheControl: true,
    });
    expect(body.messages[0].content).toEqual([
      { type: 'text', text: 'A', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'B' },
    ]);
  });
  it('flattens system parts for string-only providers', () => {
    const body = buildRequestBody({ messages: [system] }, 'm', {
      ...DEFAULT_CAPABILITIES,
      cacheControl: true,
      systemContentString: true,
    });
    expect(body.messages[0].content).toBe('A\n\nB');
  });
  it('omits stream_options for providers that reject it', () => {
    const body = buildRequestBody({ messages: [system], stream: true }, 'm', {
      ...DEFAULT_CAPABILITIES,
      streamOptions: false,
    });
    expect(body.stream).toBe(true);
    expect(body.stream_options).toBeUndefined();
  });
});
