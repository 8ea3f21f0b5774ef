import type { ColumnType, Generated } from 'kysely';

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

/**
 * Migration 0024: a team's own short-link domains (spec: url, access, sort_order); 0028: proven
 * before use (decision 028). Links are made on a domain only while it is enabled and verified.
 */
export interface ShortUrlDomainsTable {
  id: Generated<number>;
  team_id: number;
  /** The bare host a link carries (`go.shop.ua`), lower case, punycode; unique in the installation. */
  url: string;
  /** The team's switch (spec: access). */
  enabled: Generated<boolean>;
  sort_order: Generated<number>;
  /** What the domain must answer at `/.well-known/herald/<token>` or hold in `_herald.<host>` TXT. */
  verify_token: Generated<string>;
  /** When it last proved itself; null while waiting (never proven, or proof lost). */
  verified_at: Date | null;
  checked_at: Date | null;
  /** Re-checks of a verified domain that failed in a row. */
  failed_checks: Generated<number>;
  /** When a verified domain stopped proving and was taken out of use. */
  lost_at: Date | null;
  created_at: CreatedAt;
}

/**
 * Migration 0024: one short link a message carries, per recipient. `message_id` names the message
 * row without a foreign key (the messages table is created by a later migration; a link must not
 * stop a message from being deleted). `first_clicked_at` is the first human click, the engagement.
 */
export interface ShortLinksTable {
  id: Generated<number>;
  team_id: number;
  lead_id: number | null;
  message_id: number | null;
  kind: 'link' | 'unsubscribe';
  host: string;
  code: string;
  redirect_to: string | null;
  /** The phone the message went to: the one an unsubscribe blacklists, the one a click marks. */
  phone: string | null;
  human_clicks: Generated<number>;
  other_hits: Generated<number>;
  first_clicked_at: Date | null;
  unsubscribed_at: Date | null;
  created_at: CreatedAt;
}

export interface ShortLinksTables {
  short_url_domains: ShortUrlDomainsTable;
  short_links: ShortLinksTable;
}
