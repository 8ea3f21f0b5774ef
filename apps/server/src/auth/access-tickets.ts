import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';

/** Long enough to open a stream or start a download, too short to be worth stealing from a log. */
export const TICKET_TTL_MS = 60_000;

const hashOf = (ticket: string) => createHash('sha256').update(ticket).digest('hex');

/**
 * Single-use tickets for what a browser requests by URL alone (the live-events stream, a file
 * download): each stands for one session and one purpose (`events`, `export:12`) for a minute.
 */
export function createAccessTickets(db: Kysely<DB>) {
  return {
    async issue(session: { sessionId: string; userId: number }, purpose: string) {
      const ticket = randomBytes(32).toString('base64url');
      const expiresAt = new Date(Date.now() + TICKET_TTL_MS);
      // Unused tickets are cleared as new ones are issued; the index keeps this a short range scan.
      await db.deleteFrom('access_tickets').where('expires_at', '<', new Date()).execute();
      await db
        .insertInto('access_tickets')
        .values({
          ticket_hash: hashOf(ticket),
          session_id: session.sessionId,
          user_id: session.userId,
          purpose,
          expires_at: expiresAt,
        })
        .execute();
      return { ticket, expires_at: expiresAt.toISOString() };
    },

    /** The session a ticket stands for, once: the ticket is gone after this, used or not. */
    async redeem(ticket: string, purpose: string): Promise<{ sessionId: string; userId: number } | null> {
      const row = await db
        .deleteFrom('access_tickets')
        .where('ticket_hash', '=', hashOf(ticket))
        .returning(['session_id', 'user_id', 'purpose', 'expires_at'])
        .executeTakeFirst();
      if (!row || row.purpose !== purpose || row.expires_at.getTime() <= Date.now()) return null;
      return { sessionId: row.session_id, userId: Number(row.user_id) };
    },
  };
}

export type AccessTickets = ReturnType<typeof createAccessTickets>;
