import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, signupVerified } from '../support/accounts.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';
import { waitUntil } from '../support/wait.ts';

const DEMO = { name: 'Petro Buyer', email: 'petro@example.com', phone: '067 123 45 67', message: 'Show us campaigns' };

/** A local form service: records each form it is sent; answers `status()` (500 first, to prove the retry). */
function startFormService(status: () => number) {
  const received: Array<Record<string, string>> = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const code = status();
      if (code < 300)
        received.push({
          ...Object.fromEntries(new URLSearchParams(body)),
          contentType: req.headers['content-type'] ?? '',
        });
      res.writeHead(code, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return new Promise<{ url: string; received: typeof received; close: () => Promise<void> }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}/forms/demo`,
        received,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

async function storedRequests(t: TestApp, teamId: number) {
  return t.app.services.database.db.selectFrom('demo_requests').selectAll().where('team_id', '=', teamId).execute();
}

describe.each(databases)('request demo on %s', (kind) => {
  describe('with a form service', () => {
    let t: TestApp;
    let form: Awaited<ReturnType<typeof startFormService>>;
    let calls = 0;
    beforeAll(async () => {
      // The service fails the first call: the job tries again and the request still arrives once.
      form = await startFormService(() => (++calls === 1 ? 500 : 200));
      t = await startTestApp(kind, { HERALD_DEMO_FORM_URL: form.url, HERALD_SUPPORT_EMAIL: 'support@herald.test' });
    });
    afterAll(async () => {
      await t?.close();
      await form?.close();
    });

    it('posts the request as a form with source App, the phone in E.164, and keeps it', async () => {
      const owner = await signupVerified(t);
      const res = await t.request({ method: 'POST', url: '/api/demo-requests', token: owner.token, payload: DEMO });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ code: 'demo_requested', message: 'Success Demo' });

      // The first attempt met a 500; pg-boss retries after 10 s.
      await waitUntil('the form service to take the request', () => form.received.length === 1, 90_000);
      expect(form.received[0]).toEqual({
        source: 'App',
        name: DEMO.name,
        email: DEMO.email,
        phone: '+380671234567',
        message: DEMO.message,
        contentType: expect.stringContaining('application/x-www-form-urlencoded'),
      });
      await waitUntil('the request to be marked delivered', async () =>
        (await storedRequests(t, owner.user.team_id)).some((r) => r.delivered_to === 'form'),
      );
      const [row] = await storedRequests(t, owner.user.team_id);
      expect(row).toMatchObject({ id: res.json().id, user_id: owner.user.id, phone: '+380671234567' });
      expect(t.mails().filter((m) => m.to.includes('support@herald.test'))).toEqual([]);
      expect(calls).toBe(2);
    });
  });

  describe('without a form service', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp(kind, { HERALD_SUPPORT_EMAIL: 'support@herald.test' });
    });
    afterAll(() => t?.close());

    it('keeps the request and mails it to the support address', async () => {
      const owner = await signupVerified(t);
      const res = await t.request({
        method: 'POST',
        url: '/api/demo-requests',
        token: owner.token,
        headers: { 'accept-language': 'en' },
        payload: { ...DEMO, message: '' },
      });
      expect(res.statusCode).toBe(201);
      const mail = await t.waitForMail('support@herald.test');
      expect(mail.subject).toBe(`Demo request: ${DEMO.name}`);
      expect(mail.text).toContain(`Email: ${DEMO.email}`);
      expect(mail.text).toContain('Phone: +380671234567');
      expect(mail.text).toContain('(no message)');
      await waitUntil('the request to be marked delivered', async () =>
        (await storedRequests(t, owner.user.team_id)).some((r) => r.delivered_to === 'mail'),
      );
    });

    it('refuses a wrong phone, a missing name and a wrong e-mail with field messages, keeping nothing', async () => {
      const owner = await signupVerified(t);
      const badPhone = await t.request({
        method: 'POST',
        url: '/api/demo-requests',
        token: owner.token,
        payload: { ...DEMO, phone: '12ab' },
      });
      expect(badPhone.statusCode).toBe(422);
      expect(badPhone.json().errors.phone[0]).toEqual({ code: 'phone_invalid' });
      const empty = await t.request({
        method: 'POST',
        url: '/api/demo-requests',
        token: owner.token,
        payload: { name: ' ', email: 'nope', phone: '' },
      });
      expect(empty.statusCode).toBe(422);
      expect(Object.keys(empty.json().errors).sort()).toEqual(['email', 'name', 'phone']);
      expect(empty.json().errors.phone[0].code).toBe('phone_required');
      expect(await storedRequests(t, owner.user.team_id)).toEqual([]);
    });

    it('is for owners and admins: an operator and a stranger are refused', async () => {
      const owner = await signupVerified(t);
      const admin = await addMember(t, owner.token, 'team_admin');
      const operator = await addMember(t, owner.token, 'team_operator');
      const asAdmin = await t.request({ method: 'POST', url: '/api/demo-requests', token: admin.token, payload: DEMO });
      expect(asAdmin.statusCode).toBe(201);
      const asOperator = await t.request({
        method: 'POST',
        url: '/api/demo-requests',
        token: operator.token,
        payload: DEMO,
      });
      expect(asOperator.statusCode).toBe(403);
      const anonymous = await t.request({ method: 'POST', url: '/api/demo-requests', payload: DEMO });
      expect(anonymous.statusCode).toBe(401);
      expect((await storedRequests(t, owner.user.team_id)).map((r) => r.user_id)).toEqual([admin.user.id]);
    });
  });
});
