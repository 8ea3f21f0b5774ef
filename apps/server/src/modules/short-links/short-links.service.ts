import type { Kysely } from 'kysely';
import { codeLength, isRedirectTarget } from '@herald/shared/short-links/short-link-code';
import type { DB } from '../../db/schema.ts';
import { AppError } from '../../http/app-error.ts';
import { randomCode } from './short-link-codes.ts';
import type { ShortLinkKind, ShortLinksRepository } from './short-links.repository.ts';

export interface MakeShortLink {
  teamId: number;
  leadId: number | null;
  /** The message row that carries the link (no foreign key: see migration 0024). */
  messageId: number | null;
  /** Where a click goes; required for `link`, ignored for `unsubscribe` (which shows its own page). */
  redirectTo?: string | null;
  kind: ShortLinkKind;
  /** The recipient's phone: an unsubscribe blacklists it, a click marks it; all the lead's phones when absent. */
  phone?: string | null;
  /** A campaign step's chosen domain; the team's first enabled domain when absent. */
  domainId?: number;
}

/** Draws again on a taken code; at 7 base-62 characters a collision needs billions of links. */
const DRAWS = 5;

/** Makes the per-recipient short links a message carries (`{{link}}`, `{{unsubscribe}}`). */
export function createShortLinksMaker(repo: ShortLinksRepository, appHost: string) {
  return {
    /**
     * Makes one link in the caller's transaction and returns the text the message carries,
     * `host/code` with no scheme. A `link` whose target is not an absolute http(s) URL is refused
     * (422 `redirect_target_invalid`): the redirect never sends anyone anywhere else.
     */
    async make(
      tx: Kysely<DB>,
      input: MakeShortLink,
    ): Promise<{ text: string; code: string; host: string; id: number }> {
      const target = input.kind === 'link' ? (input.redirectTo ?? '').trim() : null;
      if (target !== null && !isRedirectTarget(target)) throw AppError.field('redirect_to', 'redirect_target_invalid');
      const host = (await repo.linkHost(tx, input.teamId, input.domainId)) ?? appHost;
      for (let draw = 0; draw < DRAWS; draw++) {
        const row = await repo.insertLink(tx, input.teamId, {
          lead_id: input.leadId,
          message_id: input.messageId,
          kind: input.kind,
          host,
          code: randomCode(codeLength(host)),
          redirect_to: target,
          phone: input.phone ?? null,
        });
        if (row) return { text: `${row.host}/${row.code}`, code: row.code, host: row.host, id: Number(row.id) };
      }
      throw new Error(`No free short-link code after ${DRAWS} draws`);
    },
  };
}

export type ShortLinksMaker = ReturnType<typeof createShortLinksMaker>;
