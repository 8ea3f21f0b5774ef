import { describe, expect, it } from 'vitest';
import { createCredentialCipher } from './credentials.ts';

describe('credential cipher', () => {
  it('reads back what it wrote, and the stored form holds no plain text', () => {
    const cipher = createCredentialCipher('a key for tests');
    const stored = cipher.encrypt({ token: 'super-secret-token' });
    expect(stored).not.toContain('super-secret');
    expect(stored.startsWith('v1.')).toBe(true);
    expect(cipher.decrypt(stored)).toEqual({ token: 'super-secret-token' });
    expect(cipher.encrypt({ token: 'x' })).not.toBe(cipher.encrypt({ token: 'x' }));
  });

  it('refuses a value sealed with another key or altered', () => {
    const stored = createCredentialCipher('key one').encrypt({ token: 't' });
    expect(() => createCredentialCipher('key two').decrypt(stored)).toThrow();
    const [v, iv, tag, body] = stored.split('.');
    // One bit of the ciphertext flipped: the authentication tag no longer matches.
    const bytes = Buffer.from(body, 'base64url');
    bytes[0] ^= 1;
    const flipped = `${v}.${iv}.${tag}.${bytes.toString('base64url')}`;
    expect(() => createCredentialCipher('key one').decrypt(flipped)).toThrow();
  });
});
