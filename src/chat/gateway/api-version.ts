/**
 * The API version an endpoint asks for in its URL. Azure OpenAI's deployment URLs
 * (`…/openai/deployments/NAME/chat/completions`) take the version as `?api-version=2024-10-21`:
 * without it every request is 404 "Resource not found", which reads as an unknown model or
 * address although the deployment and the key are right. A version the service does not know, or
 * one older than the model, is refused in words ('API version not supported', 'Model x is enabled
 * only for api versions 2024-12-01-preview and later'; refusal-reason.ts reads those). Either way
 * the person must write a version into CHAT_ENDPOINT_URL, so the failure says that.
 */
import { GatewayError } from './gateway-error.js';

/** True for a URL of Azure OpenAI's deployment shape without an `api-version` in its query. */
export function lacksApiVersion(url: URL): boolean {
  return /\/openai\/deployments\/[^/]+\//i.test(url.pathname) && !url.searchParams.has('api-version');
}

/**
 * `err` read as a missing API version when it is a 404 (an unknown model or address) from a URL
 * that lacks one (see lacksApiVersion); `err` itself otherwise.
 */
export function withApiVersionReason(err: GatewayError, url: URL): GatewayError {
  if (err.reason !== 'not_found' || err.upstreamStatus !== 404 || !lacksApiVersion(url)) return err;
  return new GatewayError(err.kind, err.message, {
    reason: 'api_version',
    upstreamStatus: err.upstreamStatus,
    retryable: false,
    providerCode: err.providerCode,
    providerType: err.providerType,
    detail: 'CHAT_ENDPOINT_URL has no api-version',
    partialText: err.partialText,
    inReply: err.inReply,
  });
}
