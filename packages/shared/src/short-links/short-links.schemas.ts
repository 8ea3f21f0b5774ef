import { z } from 'zod';
import { messageText } from '../common/messages.ts';
import { domainRefusal } from './short-link-code.ts';

export const ZShortUrlAccess = z.enum(['Enabled', 'Disabled']);
export type TShortUrlAccess = z.infer<typeof ZShortUrlAccess>;

/**
 * Decision 028: a domain serves links only once it proves it is the team's. `waiting` until it
 * does (never proven, or proof lost on a re-check); the steps are the file at `http_url` or the
 * TXT record `txt_name` = `txt_value`, either one.
 */
export const ZShortUrlDomainVerification = z.object({
  status: z.enum(['waiting', 'verified']),
  token: z.string(),
  http_url: z.string(),
  txt_name: z.string(),
  txt_value: z.string(),
  verified_at: z.string().nullable(),
  checked_at: z.string().nullable(),
  /** When a verified domain stopped proving and was taken out of use; null otherwise. */
  lost_at: z.string().nullable(),
});
export type TShortUrlDomainVerification = z.infer<typeof ZShortUrlDomainVerification>;

/** Spec section 3: id, url, access, sort_order (hidden in the table, orders the domains). */
export const ZShortUrlDomain = z.object({
  id: z.number(),
  url: z.string(),
  /** The team's switch; links are made on the domain only while it is Enabled and verified. */
  access: ZShortUrlAccess,
  verification: ZShortUrlDomainVerification,
  sort_order: z.number(),
  /** Characters `url/code` takes in a message (17 unless the host is longer than 9). */
  link_length: z.number(),
  created_at: z.string(),
});
export type TShortUrlDomain = z.infer<typeof ZShortUrlDomain>;
export const ZShortUrlDomainList = z.object({ data: z.array(ZShortUrlDomain) });

const ZDomainUrl = z
  .string()
  .trim()
  .min(1, messageText('short_url_domain_invalid'))
  .max(253, messageText('short_url_domain_invalid'))
  .superRefine((v, ctx) => {
    const refusal = domainRefusal(v);
    if (refusal) ctx.addIssue({ code: 'custom', message: messageText(refusal) });
  });

export const ZStoreShortUrlDomainRequest = z.object({
  url: ZDomainUrl,
  access: ZShortUrlAccess.default('Enabled'),
  sort_order: z.number().int().min(0).max(1_000_000).default(0),
});
export type TStoreShortUrlDomainRequest = z.input<typeof ZStoreShortUrlDomainRequest>;

export const ZUpdateShortUrlDomainRequest = z.object({
  url: ZDomainUrl.optional(),
  access: ZShortUrlAccess.optional(),
  sort_order: z.number().int().min(0).max(1_000_000).optional(),
});
export type TUpdateShortUrlDomainRequest = z.input<typeof ZUpdateShortUrlDomainRequest>;

export const ZShortUrlDomainResponse = z.object({ message: z.string(), code: z.string(), data: ZShortUrlDomain });
export const ZDoneResponse = z.object({ message: z.string(), code: z.string() });

/** `GET short-url-domains/has-access`: whether the team's plan includes its own domains. */
export const ZShortUrlDomainAccess = z.object({ access: z.boolean() });

/**
 * `GET short-url-domains/link-host`: the host the team's next links are made on (its first
 * enabled domain, else the app's own), so everyone who writes a message, operators too, sees
 * what a `{{link}}` will cost.
 */
export const ZShortUrlLinkHost = z.object({ host: z.string(), link_length: z.number() });
export type TShortUrlLinkHost = z.infer<typeof ZShortUrlLinkHost>;
