import { SegmentedMessage } from 'sms-segments-calculator';
import { stretchForCounting } from '../templates/render.ts';

/**
 * SMS parts, counted by Twilio's `sms-segments-calculator` (GSM 03.38 basic table 1 septet,
 * extension table 2, anything else turns the whole message into UCS-2; an escape pair or a
 * surrogate pair is never split across parts). Herald adds only what the library does not know:
 * placeholders, and what the composer shows.
 */
export type TSmsEncoding = 'GSM-7' | 'UCS-2';

export const PART_LIMITS = {
  'GSM-7': { single: 160, multi: 153 },
  'UCS-2': { single: 70, multi: 67 },
} as const;

export interface SmsCount {
  /** Units counted against the limits: septets in GSM-7 (an extension character is 2), UTF-16 code units in UCS-2. */
  characters: number;
  parts: number;
  encoding: TSmsEncoding;
  /** The distinct characters that forced UCS-2, in order of appearance (empty in GSM-7). */
  unicodeCharacters: string[];
  /** What one part holds for this message: 160/70 while it fits one, 153/67 once it does not. */
  perPart: number;
}

/** Counts a message exactly as it will be sent (already rendered). */
export function countSms(text: string): SmsCount {
  if (text.length === 0) return { characters: 0, parts: 0, encoding: 'GSM-7', unicodeCharacters: [], perPart: 160 };
  const segmented = new SegmentedMessage(text, 'auto');
  const encoding = segmented.encodingName;
  // messageSize is in bits without headers: 7 a septet, 16 a code unit.
  const characters = Math.round(segmented.messageSize / (encoding === 'GSM-7' ? 7 : 16));
  const parts = segmented.segmentsCount;
  const limits = PART_LIMITS[encoding];
  return {
    characters,
    parts,
    encoding,
    unicodeCharacters: encoding === 'UCS-2' ? [...new Set(segmented.getNonGsmCharacters())] : [],
    perPart: parts > 1 ? limits.multi : limits.single,
  };
}

/**
 * Counts a message before it is rendered: `{{link}}` and `{{unsubscribe}}` as 17 characters, other
 * tags as the longest of their possible values (or as written when none are known).
 */
export function estimateSms(
  message: string,
  values: Record<string, string | readonly string[] | undefined> = {},
): SmsCount {
  return countSms(stretchForCounting(message, values));
}
