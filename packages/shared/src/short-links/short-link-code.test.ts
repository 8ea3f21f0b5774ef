import { describe, expect, it } from 'vitest';
import { CODE_PATTERN, codeLength, isRedirectTarget, linkLength, normaliseHost } from './short-link-code.ts';

describe('short link code length', () => {
  it('fills 17 characters with the host, a slash and the code', () => {
    expect(codeLength('hrld.ua')).toBe(9);
    expect(linkLength('hrld.ua')).toBe(17);
    expect(codeLength('go.shp.ua')).toBe(7);
    expect(linkLength('go.shp.ua')).toBe(17);
    expect(codeLength('a.io')).toBe(12);
  });
  it('keeps at least 7 characters of code: a long host makes the link longer, and says so', () => {
    expect(codeLength('go.shop.ua')).toBe(7);
    expect(linkLength('go.shop.ua')).toBe(18);
    expect(linkLength('links.example.com')).toBe(25);
  });
  it('a code is 7 to 15 base-62 characters', () => {
    expect(CODE_PATTERN.test('aZ09xyQ')).toBe(true);
    expect(CODE_PATTERN.test('aZ09xy')).toBe(false);
    expect(CODE_PATTERN.test('aZ09-yQ')).toBe(false);
    expect(CODE_PATTERN.test('a'.repeat(16))).toBe(false);
  });
});

describe('redirect targets', () => {
  it('take absolute http and https URLs only', () => {
    expect(isRedirectTarget('https://shop.example/sale?a=1#x')).toBe(true);
    expect(isRedirectTarget('http://shop.example')).toBe(true);
    for (const bad of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,<b>x</b>',
      '//evil.example',
      '/relative',
      'ftp://files.example/x',
      'https://user:pass@shop.example',
      ' https://shop.example',
      '',
    ]) {
      expect(isRedirectTarget(bad), bad).toBe(false);
    }
  });
});

describe('domain hosts', () => {
  it('reduce what a user types to the host', () => {
    expect(normaliseHost('https://Go.Shop.ua/')).toBe('go.shop.ua');
    expect(normaliseHost('go.shop.ua')).toBe('go.shop.ua');
    expect(normaliseHost('localhost:3000')).toBe('localhost:3000');
    for (const bad of ['go.shop.ua/path', 'not a domain', 'javascript:alert(1)', 'https://u:p@x.ua', '', 'x.ua?q=1']) {
      expect(normaliseHost(bad), bad).toBeNull();
    }
  });
});
