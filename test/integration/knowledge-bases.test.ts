import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { toE164 } from '../../src/common/phone-number';
import { Database } from '../../src/database';
import { agents } from '../../src/modules/agents/agents.schema';
import { knowledgeBaseDocuments } from '../../src/modules/knowledge-bases/knowledge-bases.schema';
import { UrlSigner } from '../../src/storage/url-signer';
import { makeDocx, makeDocxBomb, makeElf, makePdf } from '../support/documents';
import { createMember, registerOrganization, type RegisteredAdmin } from '../support/factories';
import {
  beginUpload,
  knowledgeBaseApi,
  type KnowledgeBaseApi,
  type KnowledgeBaseDoc as Doc,
} from '../support/knowledge-bases';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait-for';

jest.setTimeout(60_000);

const UPLOAD_MAX_BYTES = 1_100_000;
const MISSING_ID = '65f1c0ffee0123456789abcd';
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

describe('knowledge bases', () => {
  let t: TestApp;
  let storageDir: string;
  let admin: RegisteredAdmin;
  let other: RegisteredAdmin;
  let create: KnowledgeBaseApi['create'];
  let update: KnowledgeBaseApi['update'];
  let documents: KnowledgeBaseApi['documents'];
  let settled: KnowledgeBaseApi['settled'];
  let search: KnowledgeBaseApi['search'];

  beforeAll(async () => {
    storageDir = mkdtempSync(join(tmpdir(), 'sb-kb-storage-'));
    t = await startTestApp({
      env: { STORAGE_DIR: storageDir, UPLOAD_MAX_BYTES: String(UPLOAD_MAX_BYTES) },
    });
    admin = await registerOrganization(t.http);
    other = await registerOrganization(t.http);
    ({ create, update, documents, settled, search } = knowledgeBaseApi(t.http, admin.token));
  });
  afterAll(async () => {
    await t.close();
    rmSync(storageDir, { recursive: true, force: true });
  });

  const stored = () => readdirSync(storageDir).sort();

  it('creates a base from PDF, DOCX, HTML, Markdown, CSV and text, and searches them once indexed', async () => {
    const response = await create({ knowledgeBaseName: 'Product FAQ', description: 'Answers' }, [
      ['refunds.pdf', makePdf(['Refunds are paid within thirty days.', 'Ask the billing desk.'])],
      ['shipping.docx', makeDocx(['Parcels travel by pelican courier.', 'Tracking is free.'])],
      ['hours.html', Buffer.from('<h1>Hours</h1><p>Open on <b>Saturdays</b> until noon.</p>')],
      ['notes.md', Buffer.from('# Notes\n\nThe warranty covers *turbines* for five years.\n')],
      ['prices.csv', Buffer.from('item,price\nflux capacitor,88\n')],
      ['../../etc/readme.txt', Buffer.from('Plain text about zeppelins.\n')],
    ]).expect(201);
    expect(response.body).toMatchObject({
      message: 'Knowledge base created',
      status: true,
      code: 201,
    });
    const base = response.body.data;
    expect(base).toMatchObject({
      _id: expect.stringMatching(/^[0-9a-f]{24}$/),
      knowledgeBaseName: 'Product FAQ',
      description: 'Answers',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(base.documents.map((doc: Doc) => doc.fileName)).toEqual([
      'refunds.pdf',
      'shipping.docx',
      'hours.html',
      'notes.md',
      'prices.csv',
      'readme.txt',
    ]);
    const docs = await settled(base._id);
    expect(docs.map((doc) => [doc.fileName, doc.contentType, doc.status])).toEqual([
      ['refunds.pdf', 'application/pdf', 'ready'],
      [
        'shipping.docx',
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        'ready',
      ],
      ['hours.html', 'text/html', 'ready'],
      ['notes.md', 'text/markdown', 'ready'],
      ['prices.csv', 'text/csv', 'ready'],
      ['readme.txt', 'text/plain', 'ready'],
    ]);
    expect(stored()).toHaveLength(6);
    for (const [q, fileName, words] of [
      ['refund days', 'refunds.pdf', /thirty days/],
      ['pelicans', 'shipping.docx', /pelican courier/],
      ['saturday', 'hours.html', /Saturdays/],
      ['turbine warranty', 'notes.md', /turbines/],
      ['"flux capacitor"', 'prices.csv', /flux capacitor/],
      ['zeppelin', 'readme.txt', /zeppelins/],
    ] as const) {
      const found = await search(base._id, q).expect(200);
      expect(found.body.data[0]).toMatchObject({ fileName, text: expect.stringMatching(words) });
      expect(found.body.data[0].score).toBeGreaterThan(0);
    }
    expect((await search(base._id, 'unicorn').expect(200)).body.data).toEqual([]);
  });

  it('serves each document through its signed URL, and refuses a tampered or expired one', async () => {
    const pdf = makePdf(['Signed download']);
    const base = (await create({ knowledgeBaseName: 'Signed' }, [['a.pdf', pdf]]).expect(201)).body
      .data;
    const url = new URL(base.documents[0].url);
    expect(url.origin).toBe(t.config.http.publicBaseUrl);
    const path = `${url.pathname}${url.search}`;
    const download = await t.http.get(path).buffer(true).expect(200);
    expect(download.headers['content-type']).toMatch(/^application\/pdf/);
    expect(download.headers['content-disposition']).toMatch(/^attachment/);
    expect(Buffer.compare(download.body as Buffer, pdf)).toBe(0);

    const tampered = new URL(url);
    tampered.searchParams.set('type', 'text/html');
    await t.http.get(`${tampered.pathname}${tampered.search}`).expect(403);
    const key = url.pathname.split('/').pop()!;
    const signer = new UrlSigner(t.config.crypto.encryptionKey);
    const past = { key, expires: 1_000, fileName: 'a.pdf', contentType: 'application/pdf' };
    const expired = new URLSearchParams({
      expires: '1000',
      name: 'a.pdf',
      type: 'application/pdf',
      signature: signer.sign(past),
    });
    const refused = await t.http.get(`${url.pathname}?${expired.toString()}`).expect(403);
    expect(refused.body).toMatchObject({
      status: false,
      code: 403,
      errorMessage: expect.stringMatching(/expired/),
    });
    await t.http.get(url.pathname).expect(400);
  });

  it('keeps documents on update, replaces a document uploaded again under its name', async () => {
    const base = (
      await create({ knowledgeBaseName: 'Updates' }, [
        ['one.txt', Buffer.from('first version about apples')],
        ['two.txt', Buffer.from('about bananas')],
      ]).expect(201)
    ).body.data;
    await settled(base._id);
    const before = stored();
    const updated = await update(base._id, { knowledgeBaseName: 'Renamed' }, [
      ['one.txt', Buffer.from('second version about cherries')],
      ['three.md', Buffer.from('about dates')],
    ]).expect(200);
    expect(updated.body.data).toMatchObject({ _id: base._id, knowledgeBaseName: 'Renamed' });
    expect(updated.body.data.documents.map((doc: Doc) => doc.fileName).sort()).toEqual([
      'one.txt',
      'three.md',
      'two.txt',
    ]);
    await settled(base._id);
    expect((await search(base._id, 'cherries').expect(200)).body.data).toHaveLength(1);
    expect((await search(base._id, 'apples').expect(200)).body.data).toEqual([]);
    // The replaced file left storage; one new file came (three.md) and one was swapped.
    expect(stored()).toHaveLength(before.length + 1);
    const named = await update(base._id, { description: 'only the description' }).expect(200);
    expect(named.body.data).toMatchObject({
      knowledgeBaseName: 'Renamed',
      description: 'only the description',
    });
    expect(named.body.data.documents).toHaveLength(3);
  });

  it('deletes one document, then the base with its files, and agents stop using it', async () => {
    const base = (
      await create({ knowledgeBaseName: 'Doomed' }, [
        ['keep.txt', Buffer.from('kept text')],
        ['drop me.txt', Buffer.from('dropped text')],
      ]).expect(201)
    ).body.data;
    const kept = (await create({ knowledgeBaseName: 'Kept' }).expect(201)).body.data;
    const agent = (
      await t.http
        .post('/api/agents')
        .set(bearer(admin.token))
        .send({ agent_name: 'Uses KB', knowledgeBaseIds: [base._id, kept._id] })
        .expect(201)
    ).body.data;
    const filesBefore = stored().length;
    await t.http
      .delete(`/api/knowledgeBase/${base._id}/documents/${encodeURIComponent('drop me.txt')}`)
      .set(bearer(admin.token))
      .expect(200);
    expect((await documents(base._id)).map((doc) => doc.fileName)).toEqual(['keep.txt']);
    expect(stored()).toHaveLength(filesBefore - 1);
    await t.http
      .delete(`/api/knowledgeBase/${base._id}/documents/${encodeURIComponent('drop me.txt')}`)
      .set(bearer(admin.token))
      .expect(404);

    const url = new URL(base.documents[0].url);
    const removed = await t.http
      .delete(`/api/knowledgeBase/${base._id}`)
      .set(bearer(admin.token))
      .expect(200);
    expect(removed.body).toEqual({ message: 'Knowledge base deleted', status: true, code: 200 });
    expect(stored()).toHaveLength(filesBefore - 2);
    await t.http.get(`${url.pathname}${url.search}`).expect(404);
    await t.http.get(`/api/knowledgeBase/${base._id}`).set(bearer(admin.token)).expect(404);
    await t.http.delete(`/api/knowledgeBase/${base._id}`).set(bearer(admin.token)).expect(404);
    const [row] = await t.app
      .get(Database)
      .db.select({ ids: agents.knowledgeBaseIds })
      .from(agents)
      .where(eq(agents.id, agent._id as string));
    expect(row.ids).toEqual([kept._id]);
  });

  it('lists bases by page and name', async () => {
    const org = await registerOrganization(t.http);
    for (const name of ['Alpha docs', 'Beta docs', 'Gamma']) {
      await create({ knowledgeBaseName: name }, [], org.token).expect(201);
    }
    const page = await t.http
      .get('/api/knowledgeBase')
      .query({ page: 1, limit: 2, search: 'docs' })
      .set(bearer(org.token))
      .expect(200);
    expect(page.body.data.map((kb: { knowledgeBaseName: string }) => kb.knowledgeBaseName)).toEqual(
      ['Beta docs', 'Alpha docs'],
    );
    expect(page.body.pagination).toEqual({ total: 2, page: 1, limit: 2, totalPages: 1 });
    expect(page.body.data[0]).toEqual({
      _id: expect.any(String),
      knowledgeBaseName: 'Beta docs',
      description: '',
      language: 'english',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  describe('refusals', () => {
    it('401 without credentials, 403 without the knowledgeBase permission', async () => {
      await t.http.get('/api/knowledgeBase').expect(401);
      await t.http
        .post('/api/knowledgeBase/createKnowledgeBase')
        .field('knowledgeBaseName', 'x')
        .expect(401);
      const member = await createMember(t.http, admin.token, ['agents']);
      await t.http.get('/api/knowledgeBase').set(bearer(member.token)).expect(403);
      const before = stored();
      await create({ knowledgeBaseName: 'x' }, [['a.txt', Buffer.from('hi')]], member.token).expect(
        403,
      );
      expect(stored()).toEqual(before);
      const allowed = await createMember(t.http, admin.token, ['knowledgeBase']);
      await create({ knowledgeBaseName: 'by member' }, [], allowed.token).expect(201);
    });

    it('400 on invalid fields, ids and queries, keeping nothing', async () => {
      const before = stored();
      const blank = await create({ knowledgeBaseName: '  ' }, [
        ['a.txt', Buffer.from('hi')],
      ]).expect(400);
      expect(blank.body.errors).toEqual([
        { field: 'knowledgeBaseName', message: expect.any(String) },
      ]);
      await create({ knowledgeBaseName: 'x', unknown: 'y' }).expect(400);
      await create({ description: 'no name' }).expect(400);
      await t.http
        .post('/api/knowledgeBase/createKnowledgeBase')
        .set(bearer(admin.token))
        .field('knowledgeBaseName', 'x')
        .attach('file', Buffer.from('hi'), 'a.txt')
        .expect(400);
      await t.http
        .post('/api/knowledgeBase/createKnowledgeBase')
        .set(bearer(admin.token))
        .set('Content-Type', 'multipart/form-data')
        .send('garbage')
        .expect(400);
      expect(stored()).toEqual(before);
      await t.http.get('/api/knowledgeBase/not-an-id').set(bearer(admin.token)).expect(400);
      const base = (await create({ knowledgeBaseName: 'q' }).expect(201)).body.data;
      await search(base._id, '   ').expect(400);
      await t.http
        .get(`/api/knowledgeBase/${base._id}/search`)
        .set(bearer(admin.token))
        .expect(400);
      await t.http
        .get('/api/knowledgeBase')
        .query({ limit: 0 })
        .set(bearer(admin.token))
        .expect(400);
    });

    it('takes form fields named __proto__ or constructor as plain fields, polluting nothing', async () => {
      // Collected into `{}`, a field named __proto__ replaced the form's prototype and its
      // validation then wrote to Object.prototype: every later phone number parse in the process
      // failed (the fuzz gate's importContacts 500s).
      for (const name of ['__proto__', 'constructor']) {
        const answer = await t.http
          .post('/api/knowledgeBase/createKnowledgeBase')
          .set(bearer(admin.token))
          .field('knowledgeBaseName', 'Polluter')
          .field(name, 'x')
          .field(name, 'y');
        expect(answer.status).toBeLessThan(500);
        expect(Object.getPrototypeOf({}).constructor).toBe(Object);
        expect(toE164('+14155551234')).toBe('+14155551234');
      }
    });

    it('415 for a renamed executable, an unknown text type, or a JSON body, keeping nothing', async () => {
      const before = stored();
      const rowsBefore = await t.app.get(Database).db.$count(knowledgeBaseDocuments);
      const elf = await create({ knowledgeBaseName: 'bad' }, [
        ['fine.txt', Buffer.from('fine')],
        ['x.pdf', makeElf()],
      ]).expect(415);
      expect(elf.body).toMatchObject({
        status: false,
        code: 415,
        errorMessage: expect.stringMatching(/x\.pdf is application\/x-elf/),
      });
      const exe = Buffer.alloc(2048);
      exe.write('MZ', 0, 'latin1');
      await create({ knowledgeBaseName: 'bad' }, [['setup.docx', exe]]).expect(415);
      await create({ knowledgeBaseName: 'bad' }, [
        ['script.sh', Buffer.from('#!/bin/sh\necho hi\n')],
      ]).expect(415);
      await create({ knowledgeBaseName: 'bad' }, [['empty.txt', Buffer.alloc(0)]]).expect(415);
      await t.http
        .post('/api/knowledgeBase/createKnowledgeBase')
        .set(bearer(admin.token))
        .send({ knowledgeBaseName: 'json' })
        .expect(415);
      expect(stored()).toEqual(before);
      expect(await t.app.get(Database).db.$count(knowledgeBaseDocuments)).toBe(rowsBefore);
      const { body } = await t.http
        .get('/api/knowledgeBase')
        .query({ search: 'bad' })
        .set(bearer(admin.token));
      expect(body.data).toEqual([]);
    });

    it('413 one byte over UPLOAD_MAX_BYTES with nothing kept, 201 at the limit', async () => {
      const before = stored();
      const over = Buffer.alloc(UPLOAD_MAX_BYTES + 1, 'a');
      await create({ knowledgeBaseName: 'too big' }, [['big.txt', over]]).expect(413);
      const split = Buffer.alloc(UPLOAD_MAX_BYTES / 2 + 1, 'b');
      await create({ knowledgeBaseName: 'too big' }, [
        ['half1.txt', split],
        ['half2.txt', split],
      ]).expect(413);
      expect(stored()).toEqual(before);
      const { body } = await t.http
        .get('/api/knowledgeBase')
        .query({ search: 'too big' })
        .set(bearer(admin.token));
      expect(body.data).toEqual([]);
      const exact = Buffer.alloc(UPLOAD_MAX_BYTES, 'c');
      const created = await create({ knowledgeBaseName: 'at limit' }, [
        ['exact.txt', exact],
      ]).expect(201);
      expect((await documents(created.body.data._id))[0].size).toBe(UPLOAD_MAX_BYTES);
    });

    it('keeps no partial file when the client goes away mid-file', async () => {
      const before = stored();
      const upload = await beginUpload(t.app.getHttpServer(), admin.token, UPLOAD_MAX_BYTES - 1);
      await waitFor(() => stored().length > before.length, { what: 'the file to be written' });
      upload.destroy();
      await waitFor(() => stored().length === before.length, { what: 'the partial file to go' });
      expect(stored()).toEqual(before);
    });

    it('fails a zip-bomb DOCX quickly, with its reason', async () => {
      const bomb = makeDocxBomb();
      expect(bomb.length).toBeLessThan(UPLOAD_MAX_BYTES);
      const rss = process.memoryUsage().rss;
      const base = (await create({ knowledgeBaseName: 'bomb' }, [['bomb.docx', bomb]]).expect(201))
        .body.data;
      const started = Date.now();
      const [doc] = await settled(base._id, 2_000);
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(doc).toMatchObject({
        status: 'failed',
        statusReason: expect.stringMatching(/zip bomb/),
      });
      expect(process.memoryUsage().rss - rss).toBeLessThan(64 * 1024 * 1024);
    });

    it('answers 404 on every route for another organization’s base', async () => {
      const base = (
        await create({ knowledgeBaseName: 'private' }, [
          ['secret.txt', Buffer.from('secret words')],
        ]).expect(201)
      ).body.data;
      await settled(base._id);
      const as = bearer(other.token);
      const id = base._id;
      await t.http.get(`/api/knowledgeBase/${id}`).set(as).expect(404);
      await t.http.get(`/api/knowledgeBase/${id}/documents`).set(as).expect(404);
      await t.http
        .get(`/api/knowledgeBase/${id}/search`)
        .query({ q: 'secret' })
        .set(as)
        .expect(404);
      await t.http
        .put(`/api/knowledgeBase/${id}`)
        .set(as)
        .field('knowledgeBaseName', 'mine')
        .expect(404);
      await t.http.delete(`/api/knowledgeBase/${id}/documents/secret.txt`).set(as).expect(404);
      await t.http.delete(`/api/knowledgeBase/${id}`).set(as).expect(404);
      const list = await t.http.get('/api/knowledgeBase').set(as).expect(200);
      expect(list.body.data.map((kb: { _id: string }) => kb._id)).not.toContain(id);
      await t.http.get(`/api/knowledgeBase/${MISSING_ID}`).set(bearer(admin.token)).expect(404);
      // Untouched for its owner.
      expect((await documents(id)).map((doc) => doc.fileName)).toEqual(['secret.txt']);
      expect((await search(id, 'secret').expect(200)).body.data).toHaveLength(1);
    });
  });
});
