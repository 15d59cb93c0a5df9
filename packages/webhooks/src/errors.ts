/** Why a delivery was refused. */
export type VerificationFailure =
  | 'missing_header'
  | 'bad_timestamp'
  | 'outside_tolerance'
  | 'no_matching_signature'
  | 'malformed_key'
  | 'malformed_body';

const MESSAGES: Record<VerificationFailure, string> = {
  missing_header: 'the request carries none of the signature headers the key can verify',
  bad_timestamp: 'the signature timestamp is not a whole number of seconds',
  outside_tolerance: 'the signature is valid but its timestamp is outside the tolerance',
  no_matching_signature: 'no signature matches the body and the key',
  malformed_key: 'the key is not a whsec_ secret or a whpk_ public key',
  malformed_body: 'the signed body is not a JSON object',
};

/** Every refusal of `verify`: `reason` says which check failed; the message never contains the key or the body. */
export class WebhookVerificationError extends Error {
  readonly reason: VerificationFailure;

  constructor(reason: VerificationFailure) {
    super(MESSAGES[reason]);
    this.name = 'WebhookVerificationError';
    this.reason = reason;
  }
}
