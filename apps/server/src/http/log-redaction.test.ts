import { describe, expect, it } from 'vitest';
import { redactUrl } from './log-redaction.ts';

describe('redactUrl', () => {
  it('hides the values of secret parameters and keeps the rest', () => {
    expect(redactUrl('/api/events?ticket=abc&lastEventId=5')).toBe('/api/events?ticket=[redacted]&lastEventId=5');
    expect(redactUrl('/reset-password?token=t1&lang=en')).toBe('/reset-password?token=[redacted]&lang=en');
    expect(redactUrl('/x?Password=p&code=1&signature=s&access_token=a')).toBe(
      '/x?Password=[redacted]&code=[redacted]&signature=[redacted]&access_token=[redacted]',
    );
  });

  it('counts bracketed and escaped names as the name', () => {
    expect(redactUrl('/x?token[0]=a&%74oken=b')).toBe('/x?token[0]=[redacted]&%74oken=[redacted]');
  });

  it('hides the invitation token in a path', () => {
    expect(redactUrl('/api/auth/invite/secret-1')).toBe('/api/auth/invite/[redacted]');
    expect(redactUrl('/invite/secret-2?x=1')).toBe('/invite/[redacted]?x=1');
    expect(redactUrl('/api/invitations/12')).toBe('/api/invitations/12');
  });

  it('leaves a URL without secrets as it is, malformed escapes included', () => {
    expect(redactUrl('/api/leads?page=2&search=%E0%A4%A')).toBe('/api/leads?page=2&search=%E0%A4%A');
    expect(redactUrl('/api/health')).toBe('/api/health');
  });
});
