import { countSms } from '@herald/shared/sms/sms-parts';
import { renderMessage } from '@herald/shared/templates/render';
import { describe, expect, it } from 'vitest';
import { countMessage } from './count-message.ts';

// A 9-character host and a 7-character code: the 17 characters the counter reserves for {{link}}.
const LINK = 'go.shop.u/AbCdEfG';

describe('countMessage', () => {
  it('counts a chosen lead as the server renders and charges it', () => {
    const message = 'Hi {{first_name}}, your offer: {{link}}';
    const values = { first_name: 'Олена', phone: '+380501234567' };
    const sent = countSms(renderMessage(message, { attributes: values, link: LINK }));
    expect(countMessage(message, values)).toEqual(sent);
    expect(sent).toMatchObject({ characters: 39, encoding: 'UCS-2', parts: 1 });
  });

  it('counts a tag the lead has no value for as nothing, not as the tag', () => {
    expect(countMessage('Hi {{city}}!', {}).characters).toBe(4);
    expect(countMessage('Hi {{city}}!').characters).toBe(12);
  });

  it('crosses a part boundary when the value is long', () => {
    const message = `${'a'.repeat(150)}{{note}}`;
    expect(countMessage(message, { note: 'b'.repeat(10) }).parts).toBe(1);
    expect(countMessage(message, { note: 'b'.repeat(11) }).parts).toBe(2);
  });
});
