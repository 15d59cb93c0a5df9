// Verifies Switchboard webhook deliveries with WebCrypto alone, so it runs on Node, Deno, browsers and edge
// runtimes alike (docs/adr/0085-receiver-library.md).
export { verify, DEFAULT_TOLERANCE_SECONDS, type VerifyOptions } from './verify.ts';
export { WebhookVerificationError, type VerificationFailure } from './errors.ts';
export type { HeadersLike } from './headers.ts';
export type { WebhookEnvelope } from './envelope.ts';
