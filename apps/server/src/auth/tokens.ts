import { randomUUID } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { AppError } from '../http/app-error.ts';

export interface TokenClaims {
  userId: number;
  sessionId: string;
}

/** HS256 access tokens; `jti` names the session row, so revoking the row revokes the token. */
export function createTokenSigner(secret: string, ttlHours: number) {
  const key = new TextEncoder().encode(secret);
  return {
    ttlMs: ttlHours * 3600_000,
    async sign(
      userId: number,
      sessionId: string = randomUUID(),
    ): Promise<{ token: string; sessionId: string; expiresAt: Date }> {
      const expiresAt = new Date(Date.now() + ttlHours * 3600_000);
      const token = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(String(userId))
        .setJti(sessionId)
        .setIssuedAt()
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(key);
      return { token, sessionId, expiresAt };
    },
    async verify(token: string): Promise<TokenClaims> {
      try {
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'] });
        const userId = Number(payload.sub);
        if (!Number.isSafeInteger(userId) || !payload.jti) throw new AppError('unauthenticated');
        return { userId, sessionId: payload.jti };
      } catch (error) {
        if (error instanceof joseErrors.JWTExpired) throw new AppError('token_expired');
        if (error instanceof AppError) throw error;
        throw new AppError('unauthenticated');
      }
    },
  };
}

export type TokenSigner = ReturnType<typeof createTokenSigner>;
