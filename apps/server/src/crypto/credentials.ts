import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM for secrets the app must read back (gateway credentials, later payment keys): a
 * database dump alone reveals none of them. The key comes from `HERALD_SECRET_KEY` (or the file
 * generated under DATA_DIR); any text is accepted and stretched to 32 bytes with SHA-256, so a
 * 64-hex key and a passphrase both work. Stored form: `v1.<iv>.<tag>.<ciphertext>`, base64url.
 */
export interface CredentialCipher {
  encrypt(value: Record<string, string>): string;
  decrypt(stored: string): Record<string, string>;
}

export function createCredentialCipher(secretKey: string): CredentialCipher {
  if (!secretKey) throw new Error('HERALD_SECRET_KEY is empty');
  const key = createHash('sha256').update(secretKey, 'utf8').digest();
  return {
    encrypt(value) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), body]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    decrypt(stored) {
      const [version, iv, tag, body] = stored.split('.');
      if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('Unknown credential format');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      const plain = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]);
      return JSON.parse(plain.toString('utf8')) as Record<string, string>;
    },
  };
}
