import { brokerUrlProblem, parseBrokerUrl, redactBrokerUrl } from '../broker-target.js';
import type { SealedUrl } from './kind.js';

/** A broker's URL (its schemes, and whether it may name a path): sealed, its host guarded, shown redacted. */
export const brokerUrl = (schemes: readonly string[], opts: { path: boolean }): SealedUrl => ({
  problem: (url) => brokerUrlProblem({ schemes, path: opts.path }, url),
  host: (url) => parseBrokerUrl(url).hostname,
  redact: redactBrokerUrl,
});
