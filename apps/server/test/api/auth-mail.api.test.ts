import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, uniqueEmail } from '../support/accounts.ts';
import { createHeldMailer } from '../support/held-mailer.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';
import { waitUntil } from '../support/wait.ts';

/**
 * Forgot-password and resend-verification answer the same for any address, and must also take the
 * same time: the mail is sent by a job after the answer, so an SMTP round trip (here, a mailer held
 * until released) cannot tell an account from a stranger.
 */
describe.each(databases)('account mails on %s', (kind) => {
  let t: TestApp;
  const held = createHeldMailer();
  beforeAll(async () => {
    t = await startTestApp(kind, {}, { mailer: held.mailer });
  });
  afterAll(async () => {
    held.release();
    await t?.close();
  });

  /** Answers within `ms`, or fails: a request stuck behind the held mailer would never answer. */
  async function answered(request: Promise<{ statusCode: number; body: string }>, ms = 15_000) {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms: it waited for the mailer`)), ms);
    });
    try {
      return await Promise.race([request, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  const mailsTo = (email: string) => held.sent.filter((m) => m.to === email);

  async function signup(email: string) {
    const res = await t.request({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { name: 'Petro', email, password: PASSWORD, password_confirmation: PASSWORD },
    });
    expect(res.statusCode).toBe(201);
    // Sign-up says whether the address is taken anyway; its verification mail is sent before the answer.
    expect(mailsTo(email)).toHaveLength(1);
    return res.json().access_token as string;
  }

  it('answers forgot-password before the mail is sent, then sends it', async () => {
    const email = uniqueEmail('reset');
    await signup(email);
    const stranger = uniqueEmail('stranger');
    held.hold();
    try {
      const known = await answered(
        t.request({ method: 'POST', url: '/api/auth/password/email', payload: { email }, remoteAddress: '10.9.0.1' }),
      );
      const unknown = await answered(
        t.request({
          method: 'POST',
          url: '/api/auth/password/email',
          payload: { email: stranger },
          remoteAddress: '10.9.0.2',
        }),
      );
      expect(known.statusCode).toBe(200);
      expect(known.body).toBe(unknown.body);
      // The job has the mail in hand and waits on the mailer; nothing is sent yet.
      await waitUntil('the reset mail to wait on the mailer', () => held.waiting() === 1);
      expect(mailsTo(email)).toHaveLength(1);
    } finally {
      held.release();
    }
    await waitUntil('the reset mail', () => mailsTo(email).length === 2);
    const mail = mailsTo(email)[1];
    expect(mail.text).toContain('http://herald.test/reset-password?token=');
    expect(mail.text).toMatch(/\b\d{6}\b/);
    expect(mailsTo(stranger)).toEqual([]);
  });

  it('answers resend-verification before the mail is sent, then sends it', async () => {
    const email = uniqueEmail('unverified');
    await signup(email);
    held.hold();
    try {
      const known = await answered(
        t.request({ method: 'POST', url: '/api/auth/email/resend', payload: { email }, remoteAddress: '10.9.1.1' }),
      );
      const unknown = await answered(
        t.request({
          method: 'POST',
          url: '/api/auth/email/resend',
          payload: { email: uniqueEmail('nobody') },
          remoteAddress: '10.9.1.2',
        }),
      );
      expect(known.statusCode).toBe(200);
      expect(known.body).toBe(unknown.body);
      await waitUntil('the verification mail to wait on the mailer', () => held.waiting() === 1);
      expect(mailsTo(email)).toHaveLength(1);
    } finally {
      held.release();
    }
    await waitUntil('the second verification mail', () => mailsTo(email).length === 2);
    expect(mailsTo(email)[1].text).toContain('http://herald.test/verify-email?token=');
  });
});
