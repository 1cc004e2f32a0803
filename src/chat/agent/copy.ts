/**
 * The plain-language copy a person sees when a turn does not end in an ordinary answer
 * (docs/CHAT-AGENT.md): each cause gets its own words, so an
 * exhausted allowance, a dead gateway, a slow step and an empty reply never all read
 * "No response".
 */

import { clipGraphemes } from '../../common/graphemes.js';
import { HOSTED_CONTEXT } from '../gateway/context-window.js';
import type { GatewayError } from '../gateway/gateway-error.js';
import type { PromptCut } from '../gateway/prompt-cut.js';
import { connectionFailureCopy } from './connection-copy.js';

/** Appended to a capped reply: how to resume (the client resends the transcript). */
export const KEEP_GOING_SUFFIX =
  'I ran out of steps for this message before finishing. Say "keep going" and I will pick up where I stopped.';

/**
 * Appended to an answer the model stopped at its length limit (finish_reason `length`): the text
 * ends mid-sentence, and the person should know it is not the whole answer.
 */
export const CUT_OFF_SUFFIX =
  'My answer was cut off here: it reached the length limit for one reply. Say "keep going" and I will continue.';

/** An answer stopped at the length limit, with CUT_OFF_SUFFIX after it. */
export function cutOffReply(text: string): string {
  return `${text}

${CUT_OFF_SUFFIX}`;
}

/** A count of tokens as the copy writes numbers: "4 096", "9 200". */
function tokenCount(n: number): string {
  return Math.round(n)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
}

/**
 * The note under a reply whose request the model's server cut to fit its context (Ollama and other
 * local servers do so without an error, see gateway/prompt-cut.ts): what it read of what was sent,
 * that the answer may be wrong for it, and what helps. When the instructions and tools alone did
 * not fit, a new conversation cannot help; otherwise it can.
 */
export function promptCutNote(cut: PromptCut): string {
  const read = `it read about ${tokenCount(cut.readTokens)} of the roughly ${tokenCount(Math.round(cut.sentTokens / 100) * 100)} tokens sent`;
  const where = LARGER_CONTEXT;
  if (cut.instructionsCut)
    return (
      `Note: the model's server cut this request to fit the model's context (${read}), so the model did not see all of this assistant's instructions and tools, and this answer may be wrong. ` +
      `Give the model a larger context where it runs (16 000 tokens or more: ${where}); a new conversation will not help.`
    );
  return (
    `Note: the model's server cut this conversation to fit the model's context (${read}), so the model did not see all of it, and this answer may miss what it did not see. ` +
    `Start a new conversation, or give the model a larger context where it runs (${where}).`
  );
}

/** Where a model's context is made larger, per runtime. */
const LARGER_CONTEXT =
  'OLLAMA_CONTEXT_LENGTH or num_ctx for Ollama, the context length LM Studio loads it with, -c for llama-server';

/** What helps when the conversation filled the model's context: asking again stops at the same place. */
const CONTEXT_FULL_ADVICE = `Start a new conversation, or give the model a larger context where it runs (${LARGER_CONTEXT}).`;

/**
 * What helps when a hosted model's own context filled (the provider said so): its size is the
 * model's, set nowhere a person can reach, so the advice is another model, not a server setting.
 */
const HOSTED_CONTEXT_FULL_ADVICE =
  'Start a new conversation, or choose a model with a larger context in CHAT_MODEL.';

/** The advice for a context that filled: a hosted model's (`hosted`) or one run locally. */
function contextFullAdvice(hosted: boolean): string {
  return hosted ? HOSTED_CONTEXT_FULL_ADVICE : CONTEXT_FULL_ADVICE;
}

/** Whether a context_full error is a hosted model's own context (the provider said so). */
const hostedContext = (err: GatewayError) => err.detail === HOSTED_CONTEXT;

/** What happened when the model's context filled up before it wrote an answer. */
const CONTEXT_FULL_BEFORE_ANSWER = "This conversation filled the model's context before it wrote an answer.";

/**
 * An answer that stopped because input and output together filled the model's context
 * (`tokens` of it, 0 when unknown), not at an output limit: "keep going" would stop at the same
 * place, so the note says what helps instead.
 */
export function contextFullReply(text: string, tokens: number, hosted = false): string {
  const size = tokens > 0 ? ` (${tokenCount(tokens)} tokens)` : '';
  return `${text}\n\nMy answer was cut off here: this conversation filled the model's context${size}, so asking me to keep going would stop at the same place. ${contextFullAdvice(hosted)}`;
}

/** What helps when the chat account's credit pays for too short an answer. */
const CREDIT_ADVICE =
  'Add credit where the key is managed (OpenRouter: openrouter.ai/settings/credits), or ask for a shorter answer.';

/**
 * An answer stopped at the output cap set because the chat account's credit afforded only
 * `tokens` of answer: "keep going" asks the same account again, so the note says what helps.
 */
export function creditCutReply(text: string, tokens: number): string {
  return `${text}\n\nMy answer was cut off here: the chat account's credit pays for only about ${tokenCount(tokens)} tokens of answer. ${CREDIT_ADVICE}`;
}

/** The reply when the model answered with no text at all. */
export const EMPTY_REPLY_COPY =
  'No answer came back from the model this time. Please try again, or rephrase the request.';

/**
 * What happened when a reply ended of its own accord with reasoning and nothing else, also when
 * asked again: the model stopped inside its reasoning, or its server files the whole answer as
 * reasoning (a reasoning parser that does not fit the model, or one that expects thinking while
 * the model's thinking is turned off). The reasoning itself is never shown: it is the model's
 * draft, not its answer.
 */
const REASONING_ONLY = 'The model wrote only its reasoning and no answer.';

/**
 * What helps then: often another try; when every reply ends so, the server's reasoning parser.
 */
const REASONING_ONLY_ADVICE =
  "Please try again, or rephrase the request. If every reply ends like this, the model's server is filing its answers as reasoning: check the reasoning parser it runs for this model (vLLM and SGLang: --reasoning-parser, which must fit the model and whether its thinking is turned on).";

/**
 * What happened when a reply stopped at its length limit with no answer: a reasoning model's
 * thinking counts against that limit and can use all of it.
 */
const REASONING_USED_THE_REPLY =
  'The model spent its whole reply on reasoning and reached its length limit before it wrote an answer.';
const LIMIT_BEFORE_ANSWER = 'The model reached its length limit before it wrote an answer.';

/**
 * What helps then: asking again the same way stops at the same place. Klebb sets no output limit
 * of its own, so the limit is the one of the server that runs the model.
 */
const LENGTH_ADVICE =
  "Ask for a smaller piece at a time, or raise the model's output limit (or lower its reasoning effort) where it runs.";

/**
 * The first sentence of the reply for an answer that came back empty (see gatewayFailure): what
 * happened, without advice, for a turn whose tools had already changed data.
 */
export function emptyReplyCause(err: GatewayError): string {
  if (err.reason === 'credit_length')
    return `The chat account's credit pays for only about ${tokenCount(Number(err.detail) || 0)} tokens of answer, and the model used them before it wrote one.`;
  if (err.reason === 'context_full') return CONTEXT_FULL_BEFORE_ANSWER;
  if (err.reason === 'reasoning_length') return REASONING_USED_THE_REPLY;
  if (err.reason === 'length') return LIMIT_BEFORE_ANSWER;
  if (err.reason === 'reasoning_only') return REASONING_ONLY;
  return EMPTY_AFTER_WRITES;
}

/**
 * The same news when the turn's tools had already changed data (followed by what changed, see
 * failedAfterWritesCopy): "try again" would be wrong advice on its own, since the changes are made.
 */
export const EMPTY_AFTER_WRITES = 'No answer came back from the model this time.';

/** The reply when one step ran past CHAT_ITER_TIMEOUT_MS (not "doesn't fit any tool": item 11). */
export function stepTimeoutCopy(iterTimeoutMs: number): string {
  const secs = iterTimeoutMs / 1000;
  const span = secs >= 2 ? `${Math.round(secs)} seconds` : secs >= 1 ? 'a second' : 'a moment';
  return (
    `One step of this request took longer than ${span}, so I stopped waiting for it. ` +
    'Anything saved before that step is kept. Say "keep going" to continue, or ask for a smaller piece at a time.'
  );
}

/** A capped reply: the model's progress text (if any) followed by how to resume. */
export function cappedReply(progressText: string): string {
  const t = progressText.trim();
  return t ? `${t}\n\n${KEEP_GOING_SUFFIX}` : KEEP_GOING_SUFFIX;
}

/**
 * An upstream message as plain text for a person: markup removed, one line, at most 200
 * characters (a provider's HTML or stack trace must not reach the chat).
 */
export function plainMessage(message: string): string {
  const text = message
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return clipGraphemes(text, 200);
}

/** What the turn knew when its call failed, for copy that depends on it. */
export interface FailureSituation {
  /**
   * The request held only the system prompt, the tools and one short new message: a refusal of
   * it as too long says the model's context cannot hold Klebb's own instructions, not that the
   * conversation grew too long.
   */
  freshStart?: boolean;
}

/**
 * A proxy in front of the model's server (Cloudflare's 524) stopped waiting before the server
 * started to answer: the same request is cut at the same limit, so the copy says what helps.
 */
const PROXY_TIMEOUT_COPY =
  "The model's server took too long to start answering: the proxy in front of it (Cloudflare, HTTP 524) stops waiting after about 100 seconds. Asking the same again waits as long; ask for less at a time or start a new conversation, choose a faster model in CHAT_MODEL, or reach the model's server without that proxy (or with a longer time limit).";

/**
 * A gateway in front of the model's server (nginx, Caddy, a load balancer, the provider's own)
 * answered 504 on every try: it stopped waiting for the model (nginx's proxy_read_timeout is 60 s
 * by default), so the model is slow for this request rather than away.
 */
const GATEWAY_TIMEOUT_COPY =
  "The model's server did not answer before the gateway in front of it stopped waiting (HTTP 504), also when asked again. A long conversation or a slow model can take longer than that gateway waits: start a new conversation, choose a faster model in CHAT_MODEL, or raise that gateway's time limit if you run it (nginx: proxy_read_timeout).";

/**
 * The model's server stopped the process running the model (Ollama's "model runner has
 * unexpectedly stopped"), also when asked again: most often the machine lacks memory for the
 * model or for this conversation, so the copy says what helps when it keeps happening.
 */
function runnerStoppedCopy(err: GatewayError): string {
  const said = err.message ? ` (${plainMessage(err.message)})` : '';
  return `The model's server stopped while running the model${said}. This often means the machine running it is short of memory for the model or for this conversation: try again, and if it keeps happening, choose a smaller model in CHAT_MODEL, start a new conversation, or look at the server's logs.`;
}

/**
 * HTTP status and copy for a gateway failure:
 * budget → 429 "allowance used up"; timeout → 504 (a proxy's 524 says whose limit it was); unavailable, rate limited (a bare 429 is
 * transient), failed → 502 (a reply cut off before its end is said to be cut off); parse → 500.
 */
export function gatewayFailure(
  err: GatewayError,
  situation: FailureSituation = {},
): { status: number; error: string } {
  switch (err.kind) {
    case 'budget':
      // when the provider says when it comes back (a daily allowance's reset), say that
      return {
        status: 429,
        error:
          err.retryAfterMs !== undefined && err.retryAfterMs > 0
            ? `The chat allowance for this model is used up. It comes back ${waitPhrase(err.retryAfterMs)}, on the provider's schedule; ask whoever runs the gateway to raise it.`
            : "The chat allowance for this model is used up. It resets on the provider's schedule; ask whoever runs the gateway to raise it.",
      };
    case 'timeout':
      if (err.reason === 'proxy_timeout')
        // asking again waits as long and is cut the same way: say whose limit it is and what helps
        return { status: 504, error: PROXY_TIMEOUT_COPY };
      return { status: 504, error: 'The model did not answer in time. Please try again in a moment.' };
    case 'rate_limited': {
      // say how long the provider asked us to wait when it said
      const when = err.retryAfterMs === undefined ? 'in a minute' : waitPhrase(err.retryAfterMs);
      return { status: 502, error: `The model is busy right now (rate limited). Please try again ${when}.` };
    }
    case 'unavailable':
      if (err.reason === 'html' && err.upstreamStatus !== undefined && err.upstreamStatus < 300)
        // a web page where the API should answer: a wrong address, or a network's sign-in page
        return {
          status: 502,
          error:
            "The chat endpoint answered with a web page instead of the model's API. Check CHAT_ENDPOINT_URL in the server's settings, or whether this network needs a sign-in first.",
        };
      {
        // an unknown host, nothing listening, an untrusted certificate: say which and what to check
        const unreached = connectionFailureCopy(err);
        if (unreached) return { status: 502, error: unreached };
      }
      if (err.upstreamStatus === 504)
        // a gateway's time limit, met on every try: the model is slow, not away
        return { status: 502, error: GATEWAY_TIMEOUT_COPY };
      if (err.reason === 'runner_stopped') return { status: 502, error: runnerStoppedCopy(err) };
      if (err.reason === 'truncated')
        // the service answered, but its reply stopped before its end: say so, not "unavailable"
        return {
          status: 502,
          error: "The model's reply was cut off before it was complete. Please try again.",
        };
      return {
        status: 502,
        error: 'The chat service is unavailable right now. Please try again in a little while.',
      };
    case 'parse':
      return { status: 500, error: 'The model sent back a reply that could not be read. Please try again.' };
    case 'empty':
      // stopped at the length limit: what happened and what helps, not "try again"
      if (err.reason === 'context_full')
        return {
          status: 200,
          error: `${CONTEXT_FULL_BEFORE_ANSWER} ${contextFullAdvice(hostedContext(err))}`,
        };
      if (err.reason === 'credit_length')
        return { status: 200, error: `${emptyReplyCause(err)} ${CREDIT_ADVICE}` };
      if (err.reason === 'reasoning_length' || err.reason === 'length')
        return { status: 200, error: `${emptyReplyCause(err)} ${LENGTH_ADVICE}` };
      if (err.reason === 'reasoning_only')
        return { status: 200, error: `${REASONING_ONLY} ${REASONING_ONLY_ADVICE}` };
      return { status: 200, error: EMPTY_REPLY_COPY };
    default: {
      if (err.reason === 'runner_stopped') return { status: 502, error: runnerStoppedCopy(err) };
      const settled = settingsFailureCopy(err, situation) ?? connectionFailureCopy(err);
      if (settled) return { status: 502, error: settled };
      return {
        status: 502,
        error: `The model could not answer this time (${plainMessage(err.message)}). Please try again.`,
      };
    }
  }
}

/**
 * Copy for a failure that trying again cannot fix and the person can: a refused key (401/403),
 * an unknown model or address (404), a model its provider has retired or the key may not use, a
 * server with no model loaded, an API not enabled for the key's project, a relay without a channel
 * for the model, a model that takes no chat requests (an embedding model), a refused location or network, a conversation too long for the model (413, or a
 * context-length refusal), a model too big for the memory of the machine serving it, a model its server's version cannot run, a provider's
 * content filter refusing the message or stopping the answer; undefined
 * for any other failure. "Please try again" would be wrong
 * advice for these, so each says what to change instead.
 */
function settingsFailureCopy(err: GatewayError, situation: FailureSituation): string | undefined {
  const said = err.message ? ` (${plainMessage(err.message)})` : '';
  switch (err.reason) {
    case 'auth':
      return `The chat endpoint refused the API key${said}. Check CHAT_API_KEY in the server's settings; trying again will not help until it is fixed.`;
    case 'not_found':
      return `The chat endpoint does not know this model or address${said}. Check CHAT_MODEL and CHAT_ENDPOINT_URL in the server's settings.`;
    case 'request_too_large':
      // nothing but the instructions, the tools and a short message: the context itself is too small
      // (a 413 without such words is a proxy's limit on the body's bytes, not the model's context)
      if (situation.freshStart && err.upstreamStatus !== 413)
        return `The model's context is too small for this assistant's instructions and tools${said}. Give the model a larger context where it runs (16 000 tokens or more: OLLAMA_CONTEXT_LENGTH for Ollama, the context length LM Studio loads it with, -c for llama-server), or choose a model that takes more; a new conversation will not help.`;
      return `This conversation is too long for the model${said}. Start a new conversation, or ask for a smaller piece at a time.`;
    case 'location_refused':
      return `The chat endpoint refuses requests from this server's location or network${said}. Use a provider or proxy that serves it, or ask whoever runs the endpoint to let it through; asking again will not help.`;
    case 'no_channel':
      return `The relay at CHAT_ENDPOINT_URL has no channel that serves this model${said}. Check that CHAT_MODEL names a model the relay offers to this key, or ask whoever runs the relay to enable a channel for it; trying again will not help until then.`;
    case 'api_disabled':
      return `The provider's API is not enabled for the project this API key belongs to${said}. Enable it for that project${enableLink(err)}, wait a few minutes, then ask again; the key itself is fine.`;
    case 'no_model_loaded':
      return `The model's server has no model loaded${said}. Load the model set in CHAT_MODEL there (LM Studio: its Developer page, or lms load; or turn on its just-in-time model loading), then ask again.`;
    case 'model_not_allowed':
      return `This API key may not use the model set in CHAT_MODEL${said}. Choose a model the key may use in CHAT_MODEL, or allow this one where the key is managed (OpenAI: the project's model limits); trying again will not help until then.`;
    case 'model_retired':
      return `The model set in CHAT_MODEL has been retired by its provider${said}. Choose a current model in CHAT_MODEL (the provider's list of models names them); trying again will not help until then.`;
    case 'not_chat_model':
      return `The model set in CHAT_MODEL does not take chat requests${said}. Choose a chat model in CHAT_MODEL (an embedding or completions-only model cannot answer); trying again will not help until then.`;
    case 'length':
      // a tool call cut off at the model's output limit: asking the same again stops at the same place
      return `The model reached its length limit in the middle of a tool call, so the call was not run${said}. ${LENGTH_ADVICE}`;
    case 'context_full':
      return `This conversation filled the model's context in the middle of a tool call, so the call was not run. ${contextFullAdvice(hostedContext(err))}`;
    case 'routing_policy':
      return `The chat endpoint's router allows none of this model's providers under its privacy or provider settings${said}. Change those settings where the key is managed (OpenRouter: openrouter.ai/settings/privacy), or choose another model in CHAT_MODEL; trying again will not help until then.`;
    case 'content_refused':
      // the same words are refused again however often they are sent; the key is not at fault
      return `The chat provider's content filter refused this message${said}. Sending it again will be refused the same way: ask in other words, or choose a model or provider without such a filter in CHAT_MODEL.`;
    case 'content_filter':
      return `The chat provider's content filter stopped the model's answer. Asking the same again is likely stopped the same way: ask in other words, or choose a model or provider without such a filter in CHAT_MODEL.`;
    case 'chat_template':
      return `The model's server could not build the model's prompt from this conversation: the model's chat template failed there${said}. Trying again will not help: load a build of the model with a working template (LM Studio: the lmstudio-community one, or fix its Prompt Template; vLLM: --chat-template), or choose another model in CHAT_MODEL.`;
    case 'api_version':
      return `The chat endpoint needs an API version it takes in CHAT_ENDPOINT_URL${said}. For Azure OpenAI end the URL with ?api-version= and a version the model takes (2024-10-21, or the newer one the model's page names); trying again will not help until then.`;
    case 'model_too_large':
      return `The model does not fit in the memory of the machine that runs it${said}. Choose a smaller model in CHAT_MODEL, or free memory on that machine; trying again will not help until then.`;
    case 'model_unsupported':
      return `The model's server cannot run this model: its version does not support the model's architecture${said}. Update the server (Ollama, llama.cpp, or LM Studio's runtime) to a version that does, or choose another model in CHAT_MODEL; trying again will not help until then.`;
    default:
      return undefined;
  }
}

/**
 * Where the provider says to enable its API, from its whole error text (Google names the page:
 * "Enable it by visiting https://console.developers.google.com/apis/api/…/overview?project=123"),
 * as " (at URL)", or '' when it names none. Taken whole: the quoted message is cut at 200
 * characters, which cut the address in the middle.
 */
function enableLink(err: GatewayError): string {
  const m = /\bhttps:\/\/console\.(?:developers|cloud)\.google\.com\/[^\s"'<>)]+/i.exec(
    err.detail ?? err.message,
  );
  return m ? ` (at ${m[0].replace(/[.,;]+$/, '')})` : '';
}

/**
 * The reply when the model's endpoint failed after the turn's tools had already changed data:
 * the failure in plain words, then what was changed and kept, and that sending the message again
 * does not make those changes twice (see resend-guard.ts).
 */
export function failedAfterWritesCopy(failure: string, changes: string): string {
  return (
    `${failure} Before that, I had already ${changes}; those changes are saved. ` +
    'If you send the same message again, I will not make them a second time.'
  );
}

/**
 * How long to wait, as a person would say it: "in a second", "in about 30 seconds" under a minute,
 * then whole minutes ("in about 5 minutes") and whole hours ("in about an hour"), so a
 * `Retry-After: 3600` does not read as 3600 seconds. `ms` is the wait in milliseconds.
 */
export function waitPhrase(ms: number): string {
  const secs = Math.max(1, Math.ceil(ms / 1000));
  if (secs === 1) return 'in a second';
  if (secs < 60) return `in about ${secs} seconds`;
  const mins = Math.round(secs / 60);
  if (mins < 60) return mins === 1 ? 'in about a minute' : `in about ${mins} minutes`;
  const hours = Math.round(secs / 3600);
  return hours === 1 ? 'in about an hour' : `in about ${hours} hours`;
}
