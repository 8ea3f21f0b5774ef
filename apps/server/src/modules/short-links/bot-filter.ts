import { isbot } from 'isbot';

/**
 * Link-preview agents and URL scanners that `isbot` does not know, or that look like browsers
 * but name themselves: messengers fetch a link the moment it arrives to draw its preview, and
 * carriers' and mail/security gateways open it to check it, long before (or without) a person.
 * Matched case-insensitively anywhere in the User-Agent.
 */
export const PREVIEW_AGENTS = [
  'viber',
  'telegram',
  'whatsapp',
  'facebookexternalhit',
  'facebot',
  'meta-externalagent',
  'slack',
  'twitterbot',
  'skypeuripreview',
  'skype',
  'imessage',
  'applebot',
  'discordbot',
  'linkedinbot',
  'vkshare',
  'bingpreview',
  'embedly',
  'iframely',
  'headlesschrome',
  'google-safety',
  'safebrowsing',
  'mimecast',
  'proofpoint',
  'barracuda',
  'symantec',
  'trendmicro',
  'kaspersky',
  'bitdefender',
  'zscaler',
  'forcepoint',
  'netcraft',
  'urlscan',
  'cloudmark',
  'spamhaus',
] as const;

const previewPattern = new RegExp(PREVIEW_AGENTS.map((a) => a.replace(/[-.]/g, '\\$&')).join('|'), 'i');

/** Seconds after a link is made within which a hit is a scanner's, not a person's (carriers check links as they pass). */
export const SCANNER_WINDOW_MS = 2_000;

export type HitReason = 'human' | 'head' | 'no_agent' | 'bot' | 'too_soon';

/**
 * Why a hit is (not) a person's click. Only `human` is engagement; the rest are counted apart.
 * HEAD is never a person (browsers follow links with GET); a request without a User-Agent neither.
 */
export function classifyHit(hit: { method: string; userAgent: string | undefined; ageMs: number }): HitReason {
  if (hit.method !== 'GET') return 'head';
  const ua = hit.userAgent?.trim() ?? '';
  if (ua === '') return 'no_agent';
  if (previewPattern.test(ua) || isbot(ua)) return 'bot';
  if (hit.ageMs < SCANNER_WINDOW_MS) return 'too_soon';
  return 'human';
}
