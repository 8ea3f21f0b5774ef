import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, PASSWORD, signupVerified } from '../support/accounts.ts';
import { attributeIds, createLead, sourceWithList } from '../support/leads.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';

/** A live-events stream over real HTTP: its status, the events it brought, and whether it ended. */
function openStream(port: number, path: string, headers: Record<string, string> = {}) {
  const events: string[] = [];
  let status = 0;
  let ended = false;
  let req: http.ClientRequest;
  const opened = new Promise<void>((resolve, reject) => {
    req = http.get({ host: '127.0.0.1', port, path, headers }, (res) => {
      status = res.statusCode ?? 0;
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        for (const line of chunk.split('\n')) if (line.startsWith('event: ')) events.push(line.slice(7));
      });
      res.on('close', () => {
        ended = true;
      });
      resolve();
    });
    req.on('error', reject);
  });
  return { opened, events, status: () => status, ended: () => ended, close: () => req.destroy() };
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.each(databases)('session tokens stay out of URLs and logs on %s', (kind) => {
  let t: TestApp;
  let port: number;
  const log: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      log.push(String(chunk));
      done();
    },
  });

  beforeAll(async () => {
    t = await startTestApp(kind, {}, { heartbeatMs: 200, logger: { level: 'info', stream: destination } });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t?.close());

  const ticketFor = async (url: string, token: string) => {
    const res = await t.request({ method: 'POST', url, token });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().ticket as string;
  };

  /** A finished export of one lead, for the download checks. */
  async function finishedExport(token: string) {
    const ids = await attributeIds(t, token);
    const { source, list } = await sourceWithList(t, token);
    await createLead(t, token, source.id, list.id, [[ids.phone, '+380501112233']]);
    const filters = [{ id: 'source', operator: 'eq', values: [source.id] }];
    const segment = await t.request({
      method: 'POST',
      url: '/api/segments',
      token,
      payload: { name: 'Everyone', ignore_new_leads: false, filters },
    });
    const started = await t.request({
      method: 'POST',
      url: `/api/segments/${segment.json().id}/leads/csv`,
      token,
      payload: { name: 'All leads', attributes: [ids.phone] },
    });
    const id = started.json().id as number;
    await until(
      'the export',
      async () =>
        (await t.request({ method: 'GET', url: '/api/exports/active', token }))
          .json()
          .data.some((e: { id: number; type: string }) => e.id === id && e.type === 'export-completed'),
      20_000,
    );
    return id;
  }

  it('never writes a secret of a request to the log', async () => {
    const { token } = await signupVerified(t);
    const ticket = await ticketFor('/api/events/tickets', token);
    const secrets = [
      token,
      ticket,
      'invite-secret-2',
      'reset-secret-3',
      'hunter2-secret',
      'code-secret-5',
      'sig-secret',
    ];
    log.length = 0;
    await t.request({ method: 'GET', url: `/api/events?token=${token}` });
    await t.request({ method: 'GET', url: `/api/exports/1/download?ticket=${ticket}&token=${token}` });
    await t.request({ method: 'GET', url: '/api/auth/invite/invite-secret-2' });
    await t.request({ method: 'GET', url: '/api/auth/invite/invite-secret-2/mistyped' });
    await t.request({ method: 'GET', url: '/reset-password?token=reset-secret-3&lang=en' });
    await t.request({
      method: 'GET',
      url: '/api/health?password=hunter2-secret&code=code-secret-5&signature=sig-secret',
    });
    await t.request({ method: 'GET', url: '/api/user', token, headers: { cookie: 'sid=sig-secret' } });

    const text = log.join('');
    expect(text).toContain('/api/auth/invite/[redacted]');
    expect(text).toContain('lang=en');
    for (const secret of secrets) expect(text).not.toContain(secret);
  });

  it('accepts the session token only in the Authorization header, never as ?token=', async () => {
    const { token } = await signupVerified(t);
    const id = await finishedExport(token);
    expect((await t.request({ method: 'GET', url: `/api/exports/${id}/download?token=${token}` })).statusCode).toBe(
      401,
    );
    const stream = openStream(port, `/api/events?token=${token}`);
    await stream.opened;
    expect(stream.status()).toBe(401);
    stream.close();
  });

  it('opens the live-events stream with a single-use ticket', async () => {
    const { token, user } = await signupVerified(t);
    const ticket = await ticketFor('/api/events/tickets', token);
    const stream = openStream(port, `/api/events?ticket=${ticket}`);
    await stream.opened;
    expect(stream.status()).toBe(200);
    await t.app.services.bus.publish(
      { teamId: user.team_id },
      { type: 'TeamOperatorAction', payload: { action: 'lead_created', user_id: user.id } },
    );
    await until('the event', () => stream.events.includes('TeamOperatorAction'));
    stream.close();

    const again = openStream(port, `/api/events?ticket=${ticket}`);
    await again.opened;
    expect(again.status()).toBe(401);
    again.close();

    const expired = await ticketFor('/api/events/tickets', token);
    await t.app.services.database.db
      .updateTable('access_tickets')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .execute();
    const late = openStream(port, `/api/events?ticket=${expired}`);
    await late.opened;
    expect(late.status()).toBe(401);
    late.close();
  });

  it('downloads an export with a single-use ticket for that file only', async () => {
    const { token } = await signupVerified(t);
    const id = await finishedExport(token);
    const other = await signupVerified(t);
    expect(
      (await t.request({ method: 'POST', url: `/api/exports/${id}/tickets`, token: other.token })).statusCode,
    ).toBe(404);

    const ticket = await ticketFor(`/api/exports/${id}/tickets`, token);
    const file = await t.request({ method: 'GET', url: `/api/exports/${id}/download?ticket=${ticket}` });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toContain('All leads.csv');
    expect(file.body).toContain('+380501112233');
    expect((await t.request({ method: 'GET', url: `/api/exports/${id}/download?ticket=${ticket}` })).statusCode).toBe(
      401,
    );
    // A ticket is for one purpose: the stream's does not open a file.
    const eventsTicket = await ticketFor('/api/events/tickets', token);
    expect(
      (await t.request({ method: 'GET', url: `/api/exports/${id}/download?ticket=${eventsTicket}` })).statusCode,
    ).toBe(401);
  });

  it('ends an open stream within seconds of log out, block and password change', async () => {
    const owner = await signupVerified(t);
    const open = async (token: string) => {
      const stream = openStream(port, `/api/events?ticket=${await ticketFor('/api/events/tickets', token)}`);
      await stream.opened;
      expect(stream.status()).toBe(200);
      return stream;
    };

    const loggedOut = await open(owner.token);
    expect((await t.request({ method: 'POST', url: '/api/auth/logout', token: owner.token })).statusCode).toBe(200);
    await until('the stream to end after log out', loggedOut.ended);

    const fresh = await signupVerified(t);
    const member = await addMember(t, fresh.token, 'team_admin');
    const blocked = await open(member.token);
    const block = await t.request({
      method: 'POST',
      url: `/api/user/${member.user.id}/block`,
      token: fresh.token,
      payload: { blocked: true },
    });
    expect(block.statusCode).toBe(200);
    await until('the stream to end after block', blocked.ended);

    const changing = await open(fresh.token);
    const changed = await t.request({
      method: 'POST',
      url: '/api/auth/password/change',
      token: fresh.token,
      payload: { current_password: PASSWORD, password: 'Brand-new1!', password_confirmation: 'Brand-new1!' },
    });
    expect(changed.statusCode).toBe(200);
    await until('the stream to end after password change', changing.ended);

    // A live session's stream stays open meanwhile.
    const live = await open(changed.json().access_token);
    await new Promise((r) => setTimeout(r, 600));
    expect(live.ended()).toBe(false);
    live.close();
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('live streams across processes on postgres', () => {
  it('ends a stream held by one API process when another revokes its session', async () => {
    const a = await startTestApp('postgres');
    const b = await startTestApp('postgres', { HERALD_ROLE: 'api' }, { shareDatabaseWith: a, heartbeatMs: 200 });
    try {
      await b.app.listen({ host: '127.0.0.1', port: 0 });
      const owner = await signupVerified(a);
      // Issued by one process, redeemed by the other: tickets live in the database.
      const ticket = (await a.request({ method: 'POST', url: '/api/events/tickets', token: owner.token })).json();
      const stream = openStream((b.app.server.address() as AddressInfo).port, `/api/events?ticket=${ticket.ticket}`);
      await stream.opened;
      expect(stream.status()).toBe(200);
      expect((await a.request({ method: 'POST', url: '/api/auth/logout', token: owner.token })).statusCode).toBe(200);
      await until('the stream to end', stream.ended);
    } finally {
      await b.close();
      await a.close();
    }
  });
});
