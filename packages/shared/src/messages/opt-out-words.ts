/**
 * Opt-out words (decision 025): a reply that is exactly one of these (any case, spaces around
 * ignored) opts the sender's phone out for the team. The whole message, not a word inside it:
 * "don't stop" is a reply. The English words are Twilio's own opt-out keywords (REVOKE and OPTOUT
 * since April 2025); beside them, the usual Ukrainian and Russian ways to say the same.
 */
export const OPT_OUT_WORDS = [
  'STOP',
  'STOPALL',
  'UNSUBSCRIBE',
  'CANCEL',
  'END',
  'QUIT',
  'REVOKE',
  'OPTOUT',
  // Ukrainian: stop, unsubscribe, unsubscription, refusal, refuse, revoke, cancel.
  'СТОП',
  'ВІДПИСАТИСЯ',
  'ВІДПИСАТИСЬ',
  'ВІДПИСКА',
  'ВІДМОВА',
  'ВІДМОВИТИСЯ',
  'ВІДКЛИКАТИ',
  'СКАСУВАТИ',
  // Russian: the same set.
  'ОТПИСАТЬСЯ',
  'ОТПИСКА',
  'ОТКАЗ',
  'ОТКАЗАТЬСЯ',
  'ОТОЗВАТЬ',
  'ОТМЕНА',
  'ОТМЕНИТЬ',
] as const;

const WORDS: ReadonlySet<string> = new Set(OPT_OUT_WORDS);

// Characters that show nothing: zero-width space, joiners, word joiner, BOM, soft hyphen, and the
// invisible separators a phone keyboard or a copy from a web page can leave inside a word.
const INVISIBLE = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\uFEFF]/g;

/**
 * The reply as it is compared: NFKC (fullwidth `ＳＴＯＰ` becomes `STOP`, compatibility forms fold),
 * invisible characters removed, trimmed, upper case (Ukrainian rules, so `і` and `ї` stay theirs).
 */
export function normalizeReply(text: string): string {
  return text.normalize('NFKC').replace(INVISIBLE, '').trim().toLocaleUpperCase('uk');
}

export function isOptOutReply(text: string): boolean {
  return WORDS.has(normalizeReply(text));
}
