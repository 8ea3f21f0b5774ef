import { describe, expect, it } from 'vitest';
import {
  CODE_PATTERN,
  codeLength,
  domainRefusal,
  isRedirectTarget,
  isSameOrSubdomain,
  linkLength,
  normaliseHost,
  normaliseRedirectTarget,
} from './short-link-code.ts';

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
  it('are stored as the URL standard writes them: punycode host, percent-encoded path and query', () => {
    expect(normaliseRedirectTarget('https://shop.example.ua/акція?знижка=10')).toBe(
      'https://shop.example.ua/%D0%B0%D0%BA%D1%86%D1%96%D1%8F?%D0%B7%D0%BD%D0%B8%D0%B6%D0%BA%D0%B0=10',
    );
    expect(normaliseRedirectTarget('https://магазин.укр/')).toBe('https://xn--80aairftm.xn--j1amh/');
    expect(normaliseRedirectTarget('https://Shop.Example/Sale')).toBe('https://shop.example/Sale');
    expect(normaliseRedirectTarget('javascript:alert(1)')).toBeNull();
  });
});

describe('domain hosts', () => {
  it('reduce what a user types to the host', () => {
    expect(normaliseHost('https://Go.Shop.ua/')).toBe('go.shop.ua');
    expect(normaliseHost('go.shop.ua')).toBe('go.shop.ua');
    expect(normaliseHost('Go.Shop.UA.')).toBe('go.shop.ua');
    expect(normaliseHost('go.магазин.укр')).toBe('go.xn--80aairftm.xn--j1amh');
    for (const bad of [
      'go.shop.ua/path',
      'not a domain',
      'javascript:alert(1)',
      'https://u:p@x.ua',
      '',
      'x.ua?q=1',
      'go.shop.ua:8080',
      'https://go.shop.ua:443/',
      'localhost:3000',
      'localhost',
      '127.0.0.1',
      '[::1]',
    ]) {
      expect(normaliseHost(bad), bad).toBeNull();
    }
  });
});

describe('domain refusals', () => {
  it('name a port apart from any other mistake', () => {
    expect(domainRefusal('go.shop.ua')).toBeNull();
    expect(domainRefusal('go.shop.ua:8080')).toBe('short_url_domain_port');
    expect(domainRefusal('https://go.shop.ua:443/')).toBe('short_url_domain_port');
    expect(domainRefusal('go.shop.ua/path')).toBe('short_url_domain_invalid');
    expect(domainRefusal('localhost:3000')).toBe('short_url_domain_invalid');
  });
});

describe('subdomains', () => {
  it('names a host and the names under it, not a look-alike', () => {
    expect(isSameOrSubdomain('herald.example', 'herald.example')).toBe(true);
    expect(isSameOrSubdomain('go.herald.example', 'herald.example')).toBe(true);
    expect(isSameOrSubdomain('notherald.example', 'herald.example')).toBe(false);
  });
});
