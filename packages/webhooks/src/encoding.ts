// Base64 and hex decoding of our own: atob is lenient about what it accepts and Buffer is Node's only; a key or a
// signature that is not strictly what the formats say is refused rather than guessed at.

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const HEX = /^(?:[0-9a-fA-F]{2})*$/;

/** Standard base64 with its padding (RFC 4648 §4), or null. */
export function decodeBase64(text: string): Uint8Array<ArrayBuffer> | null {
  if (!BASE64.test(text)) return null;
  const digits = text.replace(/=+$/, '');
  const bytes = new Uint8Array(Math.floor((digits.length * 3) / 4));
  let buffer = 0;
  let bits = 0;
  let at = 0;
  for (const char of digits) {
    buffer = ((buffer << 6) | BASE64_ALPHABET.indexOf(char)) & 0xffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[at++] = (buffer >> bits) & 0xff;
    }
  }
  return bytes;
}

/** Hex digits, either case, an even number of them, or null. */
export function decodeHex(text: string): Uint8Array<ArrayBuffer> | null {
  if (!HEX.test(text)) return null;
  const bytes = new Uint8Array(text.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/** `prefix` as UTF-8 followed by `body`: the bytes a signature covers. */
export function concatBytes(prefix: string, body: Uint8Array): Uint8Array<ArrayBuffer> {
  const head = new TextEncoder().encode(prefix);
  const out = new Uint8Array(head.length + body.length);
  out.set(head);
  out.set(body, head.length);
  return out;
}
