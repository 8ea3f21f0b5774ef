import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Response as InjectResponse } from 'light-my-request';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signupVerified } from '../support/accounts.ts';
import { attributeIds, createAttribute, sourceWithList } from '../support/leads.ts';
import { databases, startTestApp, type TestApp } from '../support/test-app.ts';
import { type ImportDoc, mapColumns, upload, waitForImport } from '../fixtures/imports/import-client.ts';
import { csv } from '../fixtures/imports/hostile-files.ts';

type Owner = Awaited<ReturnType<typeof signupVerified>>;
type Method = 'GET' | 'POST' | 'PUT';
type Case = [label: string, body: unknown, status: number, code: string, headers?: Record<string, string>];

/** What an import request may touch: after a refused one, none of it may have changed. */
const WATCHED = [
  'import_files',
  'import_file_attributes',
  'import_failed_rows',
  'leads',
  'lead_values',
  'lead_attributes',
];
const CODE: Record<number, string> = { 400: 'bad_request', 404: 'not_found', 413: 'payload_too_large' };
const BOUNDARY = '----heraldmalformed';
const MULTIPART = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
const part = (head: string, body: string | Buffer = '') =>
  Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; ${head}\r\n\r\n`),
    Buffer.from(body),
    Buffer.from('\r\n'),
  ]);
const form = (...parts: Buffer[]) => Buffer.concat([...parts, Buffer.from(`--${BOUNDARY}--\r\n`)]);
const field = (name: string, value: string) => part(`name="${name}"`, value);
const file = (filename = 'a.csv') => part(`name="file"; filename="${filename}"`, csv(['Phone', '+380501234567']));

/** Malformed and hostile requests to every import route: each a clear 4xx in the app's error shape, nothing changed. */
describe.each(databases)('malformed import requests on %s', (kind) => {
  let t: TestApp;
  let owner: Owner;
  let other: Owner;
  let listId: number;
  let otherListId: number;
  let otherAttr: number;
  let fresh: ImportDoc; // the owner's, uploaded and not started
  let foreign: ImportDoc; // another team's, uploaded
  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await signupVerified(t);
    other = await signupVerified(t);
    listId = (await sourceWithList(t, owner.token, 'Malformed')).list.id;
    otherListId = (await sourceWithList(t, other.token, 'Foreign')).list.id;
    otherAttr = await createAttribute(t, other.token, 'Foreign attribute');
    const content = csv(['Phone,City', '+380501234567,Lviv', '+380501234568,Kyiv']);
    fresh = (await upload(t, owner.token, listId, 'fresh.csv', content)).json();
    foreign = (await upload(t, other.token, otherListId, 'foreign.csv', content)).json();
    expect([fresh.status, foreign.status]).toEqual(['uploaded', 'uploaded']);
  });
  afterAll(() => t?.close());

  const snapshot = async () => {
    const out: Record<string, unknown[]> = { files: readdirSync(join(t.dataDir, 'files')).sort() };
    for (const table of WATCHED) {
      out[table] = (await sql`select * from ${sql.table(table)} order by id`.execute(t.app.services.database.db)).rows;
    }
    return JSON.stringify(out);
  };
  /** A client error in the app's shape `{ message, code, detail?, errors? }`, with this status and code. */
  const refused = (label: string, res: InjectResponse, status: number, code = CODE[status] ?? 'validation_failed') => {
    const where = `${label} → ${res.statusCode} ${res.body.slice(0, 300)}`;
    expect(res.statusCode, where).toBe(status);
    expect(res.headers['content-type'], where).toContain('application/json');
    const body = res.json();
    expect(body, where).toMatchObject({ message: expect.any(String), code });
    expect(
      Object.keys(body).filter((k) => !['message', 'code', 'detail', 'errors'].includes(k)),
      where,
    ).toEqual([]);
    for (const messages of Object.values(body.errors ?? {}) as unknown[][]) {
      expect(messages.length, where).toBeGreaterThan(0);
      for (const message of messages) expect(message, where).toMatchObject({ code: expect.any(String) });
    }
  };
  const call = (method: Method, url: string, payload?: unknown, headers?: Record<string, string>) =>
    t.request({
      method,
      url,
      token: owner.token,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  it('refuses bad and foreign ids on every id route, changing nothing', async () => {
    const mapping = { list: [{ processing_document_attribute_id: foreign.attributes[0].id, ignore: true }] };
    const routes: Array<[Method, string, unknown?]> = [
      ['GET', '/api/imports/:id'],
      ['GET', '/api/import-files/:id'],
      ['POST', '/api/imports/:id/dispatch'],
      ['POST', '/api/imports/:id/cancel'],
      ['GET', '/api/imports/:id/sync-import'],
      ['PUT', '/api/sync-import/:id', { status: 'pending' }],
      ['POST', '/api/sync-import/:id/import-attributes/multiple', mapping],
      ['PUT', '/api/imports/:id/black-list', { black_list: '1' }],
      ['GET', '/api/import-files/:id/leads-failed'],
      ['GET', '/api/import-files/:id/leads-failed/export'],
    ];
    const ids: Array<[string, number]> = [
      ['0', 422],
      ['-1', 422],
      ['abc', 422],
      ['1.5', 422],
      ['1e30', 422],
      ['99999999999999999999', 422],
      ['9007199254740991', 404],
      [String(foreign.id), 404], // another team's import
    ];
    const before = await snapshot();
    for (const [method, path, body] of routes) {
      for (const [id, status] of ids) {
        refused(`${method} ${path} id=${id}`, await call(method, path.replace(':id', id), body), status);
      }
    }
    expect(await snapshot()).toBe(before);
  });

  it('refuses JSON bodies of the wrong shape, type or size', async () => {
    const col = fresh.attributes[0].id;
    const entry = (extra: Record<string, unknown>) => ({ list: [{ processing_document_attribute_id: col, ...extra }] });
    const json = { 'content-type': 'application/json' };
    const anyRoute: Case[] = [
      ['array', [], 422, 'validation_failed'],
      ['JSON string', '"pending"', 422, 'validation_failed', json],
      ['JSON number', '5', 422, 'validation_failed', json],
      ['JSON null', 'null', 422, 'validation_failed', json],
      ['unknown keys only', { team_id: other.user.team_id, id: foreign.id }, 422, 'validation_failed'],
      ['not JSON', '{"status": pend', 400, 'bad_request', json],
      ['empty JSON body', '', 400, 'bad_request', json],
      ['no body', undefined, 422, 'validation_failed'],
      ['text/plain', 'status=pending', 422, 'validation_failed', { 'content-type': 'text/plain' }],
      ['over the body limit', { list: 'x'.repeat(t.app.services.config.BODY_LIMIT_BYTES) }, 413, 'payload_too_large'],
    ];
    const invalid = (label: string, body: unknown): Case => [label, body, 422, 'validation_failed'];
    const routes: Array<[Method, string, Case[]]> = [
      [
        'PUT',
        `/api/sync-import/${fresh.id}`,
        [
          invalid('status done', { status: 'done' }),
          invalid('status null', { status: null }),
          invalid('status number', { status: 1 }),
          invalid('status array', { status: ['pending'] }),
        ],
      ],
      [
        'PUT',
        `/api/imports/${fresh.id}/black-list`,
        [
          invalid('maybe', { black_list: 'maybe' }),
          invalid('2', { black_list: 2 }),
          invalid('null', { black_list: null }),
          invalid('"true"', { black_list: 'true' }),
          invalid('an operator object', { black_list: { $ne: null } }),
        ],
      ],
      [
        'POST',
        `/api/sync-import/${fresh.id}/import-attributes/multiple`,
        [
          invalid('empty list', { list: [] }),
          invalid('list string', { list: 'x' }),
          invalid('list object', { list: { 0: { processing_document_attribute_id: col } } }),
          invalid('null entry', { list: [null] }),
          invalid('empty entry', { list: [{}] }),
          invalid('501 entries', { list: Array.from({ length: 501 }, () => entry({ ignore: true }).list[0]) }),
          invalid('column id abc', entry({ processing_document_attribute_id: 'abc', ignore: true })),
          invalid('column id 12abc', entry({ processing_document_attribute_id: '12abc', ignore: true })),
          invalid('column id -1', entry({ processing_document_attribute_id: -1, ignore: true })),
          invalid('column id 1e30', entry({ processing_document_attribute_id: 1e30, ignore: true })),
          invalid('column id past bigint', entry({ processing_document_attribute_id: '99999999999999999999' })),
          invalid('column of another team', entry({ processing_document_attribute_id: foreign.attributes[0].id })),
          invalid('attribute id abc', entry({ lead_attribute_id: 'abc' })),
          invalid('attribute id 0', entry({ lead_attribute_id: 0 })),
          invalid('attribute id past bigint', entry({ lead_attribute_id: '99999999999999999999' })),
          invalid('attribute of another team', entry({ lead_attribute_id: otherAttr })),
          invalid('blank name', entry({ name: '   ' })),
          invalid('name of 81 characters', entry({ name: 'n'.repeat(81) })),
          invalid('name number', entry({ name: 5 })),
          invalid('type blob', entry({ name: 'Blob', type: 'blob' })),
          invalid('ignore "yes"', entry({ ignore: 'yes' })),
          invalid('check_mobile_status maybe', { ...entry({ ignore: true }), check_mobile_status: 'maybe' }),
        ],
      ],
    ];
    const before = await snapshot();
    for (const [method, url, cases] of routes) {
      for (const [label, body, status, code, headers] of [...anyRoute, ...cases]) {
        refused(`${method} ${url}: ${label}`, await call(method, url, body, headers), status, code);
      }
    }
    expect(await snapshot()).toBe(before);
  });

  it('refuses list queries out of range', async () => {
    const queries = [
      'page=0',
      'page=-1',
      'page=abc',
      'page=1e30',
      'limit=0',
      'limit=100000',
      'limit=abc',
      'order[0]=id,sideways',
      `order[0]=${encodeURIComponent('id;drop table leads')}`,
      'order[0]=id,asc&order[1]=id,desc',
      `search=${'s'.repeat(10_000)}`,
      'search[a][b]=1',
    ];
    const before = await snapshot();
    for (const base of ['/api/imports', `/api/import-files/${fresh.id}/leads-failed`]) {
      for (const query of queries)
        refused(`GET ${base}?${query.slice(0, 40)}`, await call('GET', `${base}?${query}`), 422);
    }
    expect(await snapshot()).toBe(before);
  });

  it('refuses uploads without a file, with two, with another team’s or no list, or not multipart', async () => {
    const list = field('list_id[0]', String(listId));
    const cases: Array<[string, string | Buffer, number, string?, Record<string, string>?]> = [
      ['no file', form(list, field('black_list', '0')), 422, 'validation_failed'],
      ['no parts at all', form(), 422, 'validation_failed'],
      ['list of another team', form(field('list_id[0]', String(otherListId)), file()), 404],
      ['list id abc', form(field('list_id[0]', 'abc'), file()), 422, 'import_list_required'],
      ['list id 0', form(field('list_id[0]', '0'), file()), 422, 'import_list_required'],
      ['list id -1', form(field('list_id[0]', '-1'), file()), 422, 'import_list_required'],
      ['list id past bigint', form(field('list_id[0]', '99999999999999999999'), file()), 422, 'import_list_required'],
      ['list id over 1 KB', form(field('list_id[0]', '1'.repeat(5_000)), file()), 422, 'import_list_required'],
      ['black_list maybe', form(list, field('black_list', 'maybe'), file()), 422, 'validation_failed'],
      ['black_list 2', form(list, field('black_list', '2'), file()), 422, 'validation_failed'],
      ['two files', form(list, file('a.csv'), file('b.csv')), 400],
      ['empty file name', form(list, file('')), 422, 'import_file_type_unsupported'],
      ['too many fields', form(list, ...Array.from({ length: 30 }, (_, i) => field(`f${i}`, 'x')), file()), 400],
      ['truncated', form(list, file()).subarray(0, 150), 400],
      ['no boundary', 'x', 400, undefined, { 'content-type': 'multipart/form-data' }],
      ['JSON', JSON.stringify({ 'list_id[0]': listId }), 400, undefined, { 'content-type': 'application/json' }],
    ];
    const before = await snapshot();
    for (const [label, payload, status, code, headers = MULTIPART] of cases) {
      const res = await t.request({ method: 'POST', url: '/api/imports', token: owner.token, payload, headers });
      refused(`upload: ${label}`, res, status, code);
    }
    expect(await snapshot()).toBe(before);
  });

  it('refuses a second dispatch, mapping or black list after the start, and cancelling a finished import', async () => {
    const { list } = await sourceWithList(t, owner.token, 'Twice');
    const attrs = await attributeIds(t, owner.token);
    const mapUrl = (id: number) => `/api/sync-import/${id}/import-attributes/multiple`;
    // No column the app can propose, and every column ignored: nothing to import.
    const unmapped = (await upload(t, owner.token, list.id, 'unmapped.csv', csv(['Note', 'hello']))).json();
    const ignoreAll = { list: [{ processing_document_attribute_id: unmapped.attributes[0].id, ignore: true }] };
    refused(
      'map every column ignored',
      await call('POST', mapUrl(unmapped.id), ignoreAll),
      422,
      'import_mapping_required',
    );
    const idle = await call('POST', `/api/imports/${unmapped.id}/dispatch`);
    refused('dispatch with nothing mapped', idle, 422, 'import_mapping_required');
    expect((await call('GET', `/api/imports/${unmapped.id}`)).json().status).toBe('uploaded');

    const rows = ['Phone', '+380502222221', '+380502222222', '+380502222223'];
    const doc = (await upload(t, owner.token, list.id, 'twice.csv', csv(rows))).json() as ImportDoc;
    await mapColumns(t, owner.token, doc, { Phone: attrs.phone });
    // Two dispatches at once: one starts the import, the other is told it has started.
    const runs = await Promise.all([1, 2].map(() => call('POST', `/api/imports/${doc.id}/dispatch`)));
    expect(runs.map((r) => r.statusCode).sort(), 'concurrent dispatches').toEqual([200, 409]);
    refused(
      'the losing dispatch',
      runs.find((r) => r.statusCode !== 200) as InjectResponse,
      409,
      'import_already_started',
    );
    expect(await waitForImport(t, owner.token, doc.id)).toMatchObject({ status: 'completed', leads_processed: 3 });
    const processesOf = async () =>
      ((await call('GET', '/api/processes')).json().data as Array<{ title: string; status: string }>)
        .filter((p) => p.title === 'twice.csv')
        .map((p) => p.status);
    // The process row closes just after the import: let it, so the snapshot holds still.
    await vi.waitFor(async () => expect(await processesOf()).toEqual(['completed']));
    const before = await snapshot();
    const ignoreFirst = { list: [{ processing_document_attribute_id: doc.attributes[0].id, ignore: true }] };
    const cases: Array<[string, Method, string, unknown, number, string]> = [
      ['dispatch again', 'POST', `/api/imports/${doc.id}/dispatch`, undefined, 409, 'import_already_started'],
      ['map after dispatch', 'POST', mapUrl(doc.id), ignoreFirst, 409, 'import_already_started'],
      [
        'black list after dispatch',
        'PUT',
        `/api/imports/${doc.id}/black-list`,
        { black_list: '1' },
        409,
        'import_already_started',
      ],
      ['cancel a finished import', 'POST', `/api/imports/${doc.id}/cancel`, undefined, 409, 'import_not_cancellable'],
      ['cancel it again', 'POST', `/api/imports/${doc.id}/cancel`, undefined, 409, 'import_not_cancellable'],
    ];
    for (const [label, method, url, body, status, code] of cases)
      refused(label, await call(method, url, body), status, code);
    expect((await call('GET', `/api/lists/${list.id}/leads?limit=50`)).json().meta.total).toBe(3);
    expect((await call('GET', `/api/imports/${doc.id}`)).json().status).toBe('completed');
    expect((await call('GET', '/api/imports/active')).json().data).toEqual([]);
    expect(await processesOf()).toEqual(['completed']);
    expect(await snapshot()).toBe(before);
  });
});
