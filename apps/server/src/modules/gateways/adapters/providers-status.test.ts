import { describe, expect, it } from 'vitest';
import { mapAlphaSmsStatus } from './alphasms.ts';
import { parseStatusMap, renderTemplate } from './generic-http.ts';
import { mapSmsClubStatus } from './smsclub.ts';
import { mapTurboSmsStatus } from './turbosms.ts';

describe('status mapping of the Ukrainian providers', () => {
  it.each([
    ['Queued', 'queued'],
    ['Accepted', 'queued'],
    ['Sent', 'sent'],
    ['Delivered', 'delivered'],
    ['Read', 'delivered'],
    ['Expired', 'undelivered'],
    ['Undelivered', 'undelivered'],
    ['Rejected', 'blocked_by_carrier'],
    ['Failed', 'failed'],
    ['Unknown', null],
  ])('TurboSMS %s → %s', (status, expected) => expect(mapTurboSmsStatus(status)).toBe(expected));

  it.each([
    ['ACCEPTD', 'queued'],
    ['ENROUTE', 'sent'],
    ['DELIVRD', 'delivered'],
    ['EXPIRED', 'undelivered'],
    ['UNDELIV', 'undelivered'],
    ['REJECTD', 'blocked_by_carrier'],
    ['UNKNOWN', null],
  ])('SMS Club %s → %s', (status, expected) => expect(mapSmsClubStatus(status)).toBe(expected));

  it.each([
    ['sent', 'sent'],
    ['delivered', 'delivered'],
    ['expired', 'undelivered'],
    ['rejected', 'blocked_by_carrier'],
    ['failed', 'failed'],
    ['whatever', null],
  ])('AlphaSMS %s → %s', (status, expected) => expect(mapAlphaSmsStatus(status)).toBe(expected));
});

describe('generic HTTP gateway', () => {
  it('maps statuses by the user’s table, case-insensitively, ignoring unknown targets', () => {
    const map = parseStatusMap('DELIVRD = delivered\nundeliv=undelivered\nX=nonsense\n');
    expect(map.get('delivrd')).toBe('delivered');
    expect(map.get('undeliv')).toBe('undelivered');
    expect(map.has('x')).toBe(false);
  });

  it('escapes values for the template kind, so a quote cannot break a JSON body', () => {
    const values = { to: '+380501234567', text: 'Say "hi" & go' };
    expect(JSON.parse(renderTemplate('{"to":"{{to}}","text":"{{text}}"}', values, 'json'))).toEqual(values);
    expect(renderTemplate('to={{to}}&text={{text}}', values, 'url')).toBe(
      'to=%2B380501234567&text=Say%20%22hi%22%20%26%20go',
    );
    expect(renderTemplate('{{missing}}', values, 'none')).toBe('{{missing}}');
  });
});
