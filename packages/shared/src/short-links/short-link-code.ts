/**
 * Short links as an SMS carries them: `host/code` with no scheme, 17 characters in all, which is
 * what the segment counter reserves for `{{link}}` (decision 019). The code fills what the host
 * leaves, but never falls under 7 base-62 characters (about 41.7 bits): a host longer than 9
 * characters makes the link longer than 17, and `linkLength(host)` says by how much.
 */
export const LINK_BUDGET = 17;
export const MIN_CODE_LENGTH = 7;
export const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** The longest code any host gives (a one-character host). */
export const MAX_CODE_LENGTH = LINK_BUDGET - 2;
/** A path that can be a code; the redirect looks up nothing else. */
export const CODE_PATTERN = new RegExp(`^[0-9A-Za-z]{${MIN_CODE_LENGTH},${MAX_CODE_LENGTH}}$`);

export function codeLength(host: string): number {
  return Math.max(MIN_CODE_LENGTH, LINK_BUDGET - 1 - host.length);
}

/** Characters `host/code` takes in a message: 17, or more when the host is longer than 9. */
export function linkLength(host: string): number {
  return host.length + 1 + codeLength(host);
}

/**
 * A domain as the user types it (`https://Go.Shop.ua/`, `go.shop.ua`) reduced to the host a link
 * carries (`go.shop.ua`); null when it is not a bare host (a path, a query, credentials, a bad name).
 */
export function normaliseHost(input: string): string | null {
  const text = input.trim();
  if (text === '') return null;
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== '')) {
    return null;
  }
  const host = url.host.toLowerCase();
  // A dotted name (go.shop.ua) or localhost for a local installation; IP literals have no use here.
  if (
    !/^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}(?::\d{1,5})?$|^localhost(?::\d{1,5})?$/.test(
      host,
    )
  ) {
    return null;
  }
  return host;
}

/**
 * Where a link may send people: an absolute http or https URL with a host, no credentials. Anything
 * else (javascript:, data:, a relative path, `//evil`) is refused when the link is made, so the
 * redirect can never be turned into an open redirect to another scheme.
 */
export function isRedirectTarget(target: string): boolean {
  // Whitespace or control characters (a tab inside `java\tscript:`) are refused outright.
  if (target.length > 2048 || [...target].some((ch) => ch.charCodeAt(0) <= 0x20)) return false;
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return false;
  }
  return (
    (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && !url.username && !url.password
  );
}
