import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

// OWASP's Argon2id baseline: 19 MiB, 2 iterations, 1 lane.
// algorithm 2 is Argon2id (the package's const enum cannot be imported under verbatimModuleSyntax).
const ARGON2 = { algorithm: 2 as const, memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;
/** Spends the same time as a real check, so an unknown e-mail answers as slowly as a wrong password. */
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('not-a-real-password-1!');
  await verifyPassword(await dummyHash, password);
}

/** 256 random bits, URL-safe: links in e-mails. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Six digits for the reset code. */
export function randomCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** Tokens are stored only as this hash: a database leak reveals no usable link. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
