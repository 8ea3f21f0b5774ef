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
 * A domain as the user types it (`https://Go.Shop.ua/`, `go.shop.ua.`, `go.магазин.укр`) reduced to
 * the host a link carries: lower case, punycode, no trailing dot (`go.shop.ua`,
 * `go.xn--80aairftm.xn--j1amh`). Null when it is not a bare name: a port, a path, a query,
 * credentials, an IP literal or `localhost` (a domain is proven on port 80 of a public name).
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
  // An explicit port is refused even where URL drops it as the scheme's default (`go.ua:443`).
  if (url.port !== '' || /:\d*\/?$/.test(text)) return null;
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (host.length > 253) return null;
  // A dotted name (go.shop.ua); the last label is letters or punycode, so IP literals never pass.
  if (!/^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(host)) return null;
  return host;
}

/**
 * Why what the user typed is not a domain (the message code), or null when it is one. A port gets
 * its own answer: links are opened on the standard ports, and the domain is proven on port 80.
 */
export function domainRefusal(input: string): 'short_url_domain_port' | 'short_url_domain_invalid' | null {
  if (normaliseHost(input) !== null) return null;
  const withoutPort = input.trim().replace(/:\d*(\/?)$/, '$1');
  return withoutPort !== input.trim() && normaliseHost(withoutPort) !== null
    ? 'short_url_domain_port'
    : 'short_url_domain_invalid';
}

/** Whether `host` is `parent` or a name under it (`go.herald.example` under `herald.example`). */
export function isSameOrSubdomain(host: string, parent: string): boolean {
  return host === parent || host.endsWith(`.${parent}`);
}

/**
 * Where a link may send people, as it is stored and put in the redirect's Location: the target
 * normalised by the URL standard (`new URL(target).href`: punycode host, percent-encoded path and
 * query), so `https://магазин.укр/акція?знижка=10` becomes pure ASCII a header can carry. Null
 * unless it is an absolute http or https URL with a host and no credentials: javascript:, data:, a
 * relative path or `//evil` is refused when the link is made, so the redirect can never be turned
 * into an open redirect to another scheme.
 */
export function normaliseRedirectTarget(target: string): string | null {
  // Whitespace or control characters (a tab inside `java\tscript:`) are refused outright.
  if (target.length > 2048 || [...target].some((ch) => ch.charCodeAt(0) <= 0x20 || ch.charCodeAt(0) === 0x7f)) {
    return null;
  }
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '' || url.username || url.password) {
    return null;
  }
  return url.href.length > 4096 ? null : url.href;
}

/** Whether `target` is a link's possible target (see `normaliseRedirectTarget`). */
export function isRedirectTarget(target: string): boolean {
  return normaliseRedirectTarget(target) !== null;
}
