import type { Kysely } from 'kysely';
import { codeLength, normaliseRedirectTarget } from '@herald/shared/short-links/short-link-code';
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

/**
 * A link's target as stored and sent in Location: normalised (punycode host, percent-encoded path
 * and query), null for an unsubscribe; a `link` whose target is not an absolute http(s) URL is
 * refused (422 `redirect_target_invalid`): the redirect never sends anyone anywhere else.
 */
function targetOf(input: Pick<MakeShortLink, 'kind' | 'redirectTo'>): string | null {
  if (input.kind !== 'link') return null;
  const target = normaliseRedirectTarget((input.redirectTo ?? '').trim());
  if (target === null) throw AppError.field('redirect_to', 'redirect_target_invalid');
  return target;
}

/** Makes the per-recipient short links a message carries (`{{link}}`, `{{unsubscribe}}`). */
export function createShortLinksMaker(repo: ShortLinksRepository, appHost: string) {
  return {
    /**
     * Makes one link in the caller's transaction and returns the text the message carries,
     * `host/code` with no scheme; its target is checked and normalised by `targetOf`.
     */
    async make(
      tx: Kysely<DB>,
      input: MakeShortLink,
    ): Promise<{ text: string; code: string; host: string; id: number }> {
      const target = targetOf(input);
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

    /**
     * `make` for many recipients of one team at once (a campaign step's batch): one host lookup
     * and one insert, then one more for any code that was taken. Results are in `inputs` order.
     */
    async makeMany(
      tx: Kysely<DB>,
      teamId: number,
      inputs: Array<Omit<MakeShortLink, 'teamId' | 'domainId'>>,
      domainId?: number,
    ): Promise<Array<{ text: string; code: string; host: string; id: number }>> {
      const targets = inputs.map(targetOf);
      const host = (await repo.linkHost(tx, teamId, domainId)) ?? appHost;
      const results = new Array<{ text: string; code: string; host: string; id: number }>(inputs.length);
      let missing = inputs.map((_, i) => i);
      for (let draw = 0; draw < DRAWS && missing.length > 0; draw++) {
        const codes = new Map(missing.map((i) => [randomCode(codeLength(host)), i]));
        const rows = await repo.insertLinks(
          tx,
          teamId,
          [...codes].map(([code, i]) => ({
            lead_id: inputs[i].leadId,
            message_id: inputs[i].messageId,
            kind: inputs[i].kind,
            host,
            code,
            redirect_to: targets[i],
            phone: inputs[i].phone ?? null,
          })),
        );
        for (const row of rows) {
          const i = codes.get(row.code) as number;
          results[i] = { text: `${row.host}/${row.code}`, code: row.code, host: row.host, id: Number(row.id) };
        }
        missing = missing.filter((i) => results[i] === undefined);
      }
      if (missing.length > 0) throw new Error(`No free short-link code after ${DRAWS} draws`);
      return results;
    },
  };
}

export type ShortLinksMaker = ReturnType<typeof createShortLinksMaker>;
