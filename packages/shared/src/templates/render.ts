/**
 * Message placeholders: `{{attribute_slug}}` for a lead's value, `{{link}}` for the recipient's short
 * link and `{{unsubscribe}}` for the recipient's opt-out link. A tag may carry a fallback,
 * `{{imia|друже}}`, used when the lead has no value. One rule for the composer, the price estimate,
 * the server's checks and the dispatch, so what the user is shown is what is sent.
 */
export const LINK_TAG = 'link';
export const UNSUBSCRIBE_TAG = 'unsubscribe';
/** A short link is `host/code` in exactly this many characters (DESIGN §3, Short links). */
export const SHORT_LINK_LENGTH = 17;
/** Tags every message may carry whatever the team's attributes. */
export const LINK_TAGS: readonly string[] = [LINK_TAG, UNSUBSCRIBE_TAG];

// `{{ slug }}` or `{{ slug | fallback }}`; a fallback is one line without braces.
const PLACEHOLDER = /\{\{\s*([a-z0-9_]+)\s*(?:\|([^{}\r\n]*))?\}\}/gi;

/** The distinct tags of a message, in order of first appearance (lower case). */
export function placeholdersOf(message: string): string[] {
  const tags: string[] = [];
  for (const match of message.matchAll(PLACEHOLDER)) {
    const tag = (match[1] as string).toLowerCase();
    if (!tags.includes(tag)) tags.push(tag);
  }
  return tags;
}

/** The fallback written on the first use of `tag` that has one (`{{tag|…}}`). */
export function fallbackOf(message: string, tag: string): string | undefined {
  for (const match of message.matchAll(PLACEHOLDER)) {
    if ((match[1] as string).toLowerCase() !== tag) continue;
    const fallback = match[2]?.trim();
    if (fallback) return fallback;
  }
  return undefined;
}

/**
 * The tags of a message that name neither a link nor one of `slugs` (the team's attributes), in
 * order: a message carrying one would go out with a blank where the user expected a value.
 */
export function unknownPlaceholders(message: string, slugs: Iterable<string>): string[] {
  const known = new Set([...slugs].map((s) => s.toLowerCase()));
  return placeholdersOf(message).filter((tag) => !LINK_TAGS.includes(tag) && !known.has(tag));
}

/** The refused tags as the error names them: `{{name}}, {{misto}}`. */
export function writtenPlaceholders(tags: readonly string[]): string {
  return tags.map((tag) => `{{${tag}}}`).join(', ');
}

type Value = string | readonly string[] | undefined;

/** A value as it is sent: several joined with '; ', as the lead tables show them; '' when there is none. */
function written(value: Value): string {
  if (value === undefined) return '';
  return typeof value === 'string' ? value : value.filter((v) => v !== '').join('; ');
}

export interface RenderValues {
  /** A lead's values by attribute slug; several values of one attribute are joined with '; '. */
  attributes?: Record<string, Value>;
  link?: string;
  unsubscribe?: string;
}

/**
 * The message one recipient receives. A tag with no value becomes its fallback, or nothing; never
 * the raw `{{tag}}`.
 */
export function renderMessage(message: string, values: RenderValues = {}): string {
  return message.replace(PLACEHOLDER, (_, raw: string) => {
    const tag = raw.toLowerCase();
    if (tag === LINK_TAG) return values.link ?? '';
    if (tag === UNSUBSCRIBE_TAG) return values.unsubscribe ?? '';
    // A fallback written on any use of the tag serves all of them, as the preview counts it.
    return written(values.attributes?.[tag]) || (fallbackOf(message, tag) ?? '');
  });
}

/** For each attribute tag of a message, how many recipients get their own value, its fallback or nothing. */
export interface PlaceholderGap {
  tag: string;
  fallback: string | undefined;
  /** Recipients without a value who get the fallback. */
  fallbackCount: number;
  /** Recipients without a value and no fallback: the tag goes out empty. */
  emptyCount: number;
}

/**
 * What the preview says before sending: per attribute tag, how many of the chosen recipients have no
 * value for it and so get the fallback, or an empty place where the tag was.
 */
export function placeholderGaps(message: string, recipients: ReadonlyArray<Record<string, Value>>): PlaceholderGap[] {
  return placeholdersOf(message)
    .filter((tag) => !LINK_TAGS.includes(tag))
    .map((tag) => {
      const fallback = fallbackOf(message, tag);
      const missing = recipients.filter((r) => written(r[tag]) === '').length;
      return {
        tag,
        fallback,
        fallbackCount: fallback ? missing : 0,
        emptyCount: fallback ? 0 : missing,
      };
    });
}

/**
 * The message as long as it can become, for counting before the values are known: links take
 * their fixed 17 characters, a tag with known values the longest of them (the fallback standing in
 * for an empty one), and a tag with none as many characters as the tag takes written (the spec:
 * other tags count by their text length; the written tag is never shorter than its fallback).
 */
export function stretchForCounting(message: string, values: Record<string, Value> = {}): string {
  return message.replace(PLACEHOLDER, (whole: string, raw: string) => {
    const tag = raw.toLowerCase();
    const fallback = fallbackOf(message, tag);
    // A link is made of GSM characters only (host and base-62 code), so a stand-in of plain
    // letters counts exactly like it.
    if (tag === LINK_TAG || tag === UNSUBSCRIBE_TAG) return 'x'.repeat(SHORT_LINK_LENGTH);
    const value = values[tag];
    // Counted as the plain characters of the tag, not as four 2-septet braces; a fallback is kept
    // as written, so one in Cyrillic counts as the Unicode it may turn the message into.
    if (value === undefined) return (fallback ?? '').padEnd(whole.length, 'x');
    const options = (typeof value === 'string' ? [value] : value).map((v) => v || (fallback ?? ''));
    if (options.length === 0) options.push(fallback ?? '');
    return options.reduce((longest, v) => (v.length > longest.length ? v : longest), '');
  });
}
