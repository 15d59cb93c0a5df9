import { generateKeyPair, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';

const generateKeyPairAsync = promisify(generateKeyPair);

/**
 * A fresh RSA-2048 DKIM key pair. The public key is the base64 DER SubjectPublicKeyInfo that goes after `p=`;
 * the private key is PKCS#8 PEM, the form nodemailer's DKIM signer takes. Generated off the event loop.
 */
export async function generateDkimKeyPair(): Promise<{ selector: string; publicKey: string; privateKeyPem: string }> {
  const { publicKey, privateKey } = await generateKeyPairAsync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  // A selector per key, so re-adding a domain never collides with a stale record of an earlier key.
  return {
    selector: `sb${randomBytes(4).toString('hex')}`,
    publicKey: publicKey.toString('base64'),
    privateKeyPem: privateKey,
  };
}
