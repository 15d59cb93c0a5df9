/** A Standard Webhooks signing secret for events/subscribe: `whsec_` and base64 of 32 CSPRNG bytes. */
export function generateSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `whsec_${Buffer.from(bytes).toString('base64')}`;
}
