import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createSecretKey,
  hkdfSync,
  randomBytes,
  scrypt,
  timingSafeEqual,
} from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (pw: string, salt: Buffer, len: number, opts: object) => Promise<Buffer>;

export const sha256Hex = (value: string): string => createHash('sha256').update(value, 'utf8').digest('hex');

/** Constant-time string comparison; unequal lengths compare a digest so timing does not reveal the length. */
export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  if (ab.length !== bb.length) {
    timingSafeEqual(createHash('sha256').update(ab).digest(), createHash('sha256').update(bb).digest());
    return false;
  }
  return timingSafeEqual(ab, bb);
}

// scrypt with N=2^15: about 50 ms here, memory 32 MiB per hash.
const SCRYPT = { N: 1 << 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, 32, SCRYPT);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT.maxmem,
  });
  return timingSafeEqual(actual, expected);
}

/** A fixed hash to verify against when the email is unknown, so both paths cost the same. */
export const DUMMY_PASSWORD_HASH = `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${Buffer.alloc(16).toString('base64')}$${Buffer.alloc(32).toString('base64')}`;

/** AES-256-GCM for secrets at rest. The key is derived from APP_SECRET per purpose. */
export function createSealer(appSecret: string, purpose: string) {
  // A KeyObject, made once: a cipher given a Buffer imports the key again on every call, which cost twice the
  // decryption itself (17 µs an open against 5; a worker opens the secret of each subscription it signs for).
  const key = createSecretKey(Buffer.from(hkdfSync('sha256', appSecret, 'switchboard', purpose, 32)));
  return {
    seal(plaintext: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join('.');
    },
    open(sealed: string): string {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('unrecognised sealed value');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
    },
  };
}

export type Sealer = ReturnType<typeof createSealer>;

/** The sealers of one runtime, one per purpose (each has its own derived key). */
export function createSealers(appSecret: string) {
  return {
    webhook: createSealer(appSecret, 'webhook-secret'),
    integration: createSealer(appSecret, 'integration'),
    dkim: createSealer(appSecret, 'dkim'),
    /** oidc-provider's artifacts at rest (src/oauth/oauth-store.ts). */
    oauthStore: createSealer(appSecret, 'oauth-store'),
  };
}

export type Sealers = ReturnType<typeof createSealers>;
