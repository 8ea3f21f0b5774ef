import { describe, expect, it } from 'vitest';
import { classifyHit } from './bot-filter.ts';

const BROWSER =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
const late = { method: 'GET', ageMs: 60_000 };

describe('bot filter', () => {
  it('a phone browser, late enough, is a person', () => {
    expect(classifyHit({ ...late, userAgent: BROWSER })).toBe('human');
  });
  it('link-preview agents and scanners are not', () => {
    for (const ua of [
      'Viber/21.0.1 CFNetwork/1410 Darwin/22.6.0',
      'Mozilla/5.0 (compatible; Viber)',
      'TelegramBot (like TwitterBot)',
      'WhatsApp/2.24.1.78 A',
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0',
      'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
      'Twitterbot/1.0',
      'Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5',
      'Mozilla/5.0 (compatible; Mimecast URL scanner)',
      'curl/8.4.0',
    ]) {
      expect(classifyHit({ ...late, userAgent: ua }), ua).toBe('bot');
    }
  });
  it('HEAD, no User-Agent and a hit within 2 s of the link are not engagement', () => {
    expect(classifyHit({ method: 'HEAD', userAgent: BROWSER, ageMs: 60_000 })).toBe('head');
    expect(classifyHit({ ...late, userAgent: undefined })).toBe('no_agent');
    expect(classifyHit({ method: 'GET', userAgent: BROWSER, ageMs: 1_500 })).toBe('too_soon');
    expect(classifyHit({ method: 'GET', userAgent: BROWSER, ageMs: 2_000 })).toBe('human');
  });
});
