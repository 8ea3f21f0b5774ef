/**
 * Message placeholders: `{{attribute_slug}}` for a lead's value, `{{link}}` for the recipient's short
 * link and `{{unsubscribe}}` for the recipient's opt-out link. One rule for the composer, the price
 * estimate and the dispatch, so what the user is shown is what is sent.
 */
export const LINK_TAG = 'link';
export const UNSUBSCRIBE_TAG = 'unsubscribe';
/** A short link is `host/code` in exactly this many characters (DESIGN §3, Short links). */
export const SHORT_LINK_LENGTH = 17;

const PLACEHOLDER = /\{\{\s*([a-z0-9_]+)\s*\}\}/gi;

/** The distinct tags of a message, in order of first appearance (lower case). */
export function placeholdersOf(message: string): string[] {
  const tags: string[] = [];
  for (const match of message.matchAll(PLACEHOLDER)) {
    const tag = (match[1] as string).toLowerCase();
    if (!tags.includes(tag)) tags.push(tag);
  }
  return tags;
}

export interface RenderValues {
  /** A lead's values by attribute slug; several values of one attribute are joined with '; '. */
  attributes?: Record<string, string | readonly string[] | undefined>;
  link?: string;
  unsubscribe?: string;
}

/** The message one recipient receives. A tag with no value becomes nothing, never the raw `{{tag}}`. */
export function renderMessage(message: string, values: RenderValues = {}): string {
  return message.replace(PLACEHOLDER, (_, raw: string) => {
    const tag = raw.toLowerCase();
    if (tag === LINK_TAG) return values.link ?? '';
    if (tag === UNSUBSCRIBE_TAG) return values.unsubscribe ?? '';
    const value = values.attributes?.[tag];
    if (value === undefined) return '';
    return typeof value === 'string' ? value : value.join('; ');
  });
}

/**
 * The message as long as it can become, for counting before the values are known: links take
 * their fixed 17 characters, a tag with known values the longest of them, and a tag with none as many
 * characters as the tag takes written (the spec: other tags count by their text length).
 */
export function stretchForCounting(
  message: string,
  values: Record<string, string | readonly string[] | undefined> = {},
): string {
  return message.replace(PLACEHOLDER, (whole: string, raw: string) => {
    const tag = raw.toLowerCase();
    // A link is made of GSM characters only (host and base-62 code), so a stand-in of plain
    // letters counts exactly like it.
    if (tag === LINK_TAG || tag === UNSUBSCRIBE_TAG) return 'x'.repeat(SHORT_LINK_LENGTH);
    const value = values[tag];
    // Counted as the plain characters of the tag, not as four 2-septet braces.
    if (value === undefined) return 'x'.repeat(whole.length);
    const options = typeof value === 'string' ? [value] : value;
    return options.reduce((longest, v) => (v.length > longest.length ? v : longest), '');
  });
}
