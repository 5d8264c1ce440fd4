import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { DEFAULT_VOICE_CATALOGUE, type VoiceMode } from '../../src/config';
import { Database } from '../../src/database';
import { videoAgents } from '../../src/modules/video-agents/video-agents.schema';
import { createMember, registerOrganization, type RegisteredAdmin } from '../support/factories';
import { startTestApp, type TestApp } from '../support/test-app';

// Booting the app (twice) and signing up several users takes more than Jest's 5 s on 2 cores.
jest.setTimeout(60_000);

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const MISSING_ID = '65f1c0ffee0123456789abcd';
const RACHEL = '21m00Tcm4TlvDq8ikWAM';

/** The seed's voice shape: exactly these five fields. */
const seedVoices = (mode?: VoiceMode) =>
  DEFAULT_VOICE_CATALOGUE.filter((voice) => mode === undefined || voice.modes.includes(mode)).map(
    ({ id, name, language, gender, provider }) => ({ id, name, language, gender, provider }),
  );

describe('video agents', () => {
  let t: TestApp;
  let admin: RegisteredAdmin;
  let other: RegisteredAdmin;
  let videoMember: { token: string };
  let callsMember: { token: string };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await registerOrganization(t.http);
    other = await registerOrganization(t.http);
    videoMember = await createMember(t.http, admin.token, ['videoAgents']);
    callsMember = await createMember(t.http, admin.token, ['calls']);
  });
  afterAll(async () => {
    await t.close();
  });

  const db = () => t.app.get(Database).db;
  const create = (body: object, token = admin.token) =>
    t.http.post('/api/video-agent').set(bearer(token)).send(body);
  const createdId = async (body: object, token = admin.token): Promise<string> =>
    (await create(body, token).expect(201)).body.data.id as string;
  const voices = (query: string, token = admin.token) =>
    t.http.get(`/api/video-agent/voices${query}`).set(bearer(token));
  const fieldsOf = (body: { errors?: { field: string }[] }) =>
    (body.errors ?? []).map((error) => error.field);

  describe('POST /api/video-agent and GET /api/video-agent/{id}', () => {
    it('creates a video agent with the defaults, and reads it back', async () => {
      const response = await create({ name: 'Guide', voiceId: RACHEL }).expect(201);
      expect(response.body).toEqual({
        message: 'Video agent created',
        status: true,
        code: 201,
        data: {
          id: expect.stringMatching(/^[0-9a-f]{24}$/),
          name: 'Guide',
          mode: 'video',
          voiceId: RACHEL,
          language: 'en-US',
          prompt: '',
          greeting: null,
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        },
      });
      const read = await t.http
        .get(`/api/video-agent/${response.body.data.id}`)
        .set(bearer(videoMember.token))
        .expect(200);
      expect(read.body).toEqual({
        message: 'Video agent fetched',
        status: true,
        code: 200,
        data: response.body.data,
      });
      const [row] = await db()
        .select()
        .from(videoAgents)
        .where(eq(videoAgents.id, response.body.data.id));
      expect(row).toMatchObject({ organizationId: admin.organizationId, voiceId: RACHEL });
    });

    it('stores every field sent, the language tag in canonical form', async () => {
      const body = {
        name: 'Support line',
        mode: 'audio',
        voiceId: 'alloy',
        language: 'EN-gb',
        prompt: 'You answer billing questions.',
        greeting: 'Hello, billing here.',
      };
      const response = await create(body, videoMember.token).expect(201);
      expect(response.body.data).toMatchObject({ ...body, language: 'en-GB' });
    });

    it.each([
      ['no name', { voiceId: RACHEL }, 'name'],
      ['a blank name', { name: '   ', voiceId: RACHEL }, 'name'],
      ['no voiceId', { name: 'A' }, 'voiceId'],
      ['an unknown mode', { name: 'A', voiceId: RACHEL, mode: 'hologram' }, 'mode'],
      ['null as mode', { name: 'A', voiceId: RACHEL, mode: null }, 'mode'],
      ['a voice of no mode', { name: 'A', voiceId: 'no-such-voice' }, 'voiceId'],
      // alloy is an audio voice only: a talking avatar cannot lip-sync to it
      ['an audio voice on a video agent', { name: 'A', voiceId: 'alloy' }, 'voiceId'],
      ['a malformed language', { name: 'A', voiceId: RACHEL, language: 'english!' }, 'language'],
      ['an unknown field', { name: 'A', voiceId: RACHEL, avatar: 'x' }, 'avatar'],
    ])('answers 400 in the error envelope for %s', async (_case, body, field) => {
      const response = await create(body).expect(400);
      expect(response.body).toMatchObject({ status: false, code: 400 });
      expect(response.body.errorMessage).toEqual(expect.any(String));
      expect(fieldsOf(response.body)).toContain(field);
    });
  });

  describe('DELETE /api/video-agent/{id}', () => {
    it('deletes for good, answering status, code and message only; a second delete is 404', async () => {
      const id = await createdId({ name: 'Short-lived', voiceId: RACHEL });
      const response = await t.http
        .delete(`/api/video-agent/${id}`)
        .set(bearer(videoMember.token))
        .expect(200);
      expect(response.body).toEqual({ message: 'Video agent deleted', status: true, code: 200 });
      expect(await db().select().from(videoAgents).where(eq(videoAgents.id, id))).toEqual([]);
      await t.http.get(`/api/video-agent/${id}`).set(bearer(admin.token)).expect(404);
      await t.http.delete(`/api/video-agent/${id}`).set(bearer(admin.token)).expect(404);
    });
  });

  describe('access', () => {
    it('answers 401 without credentials, and 403 to a member without the videoAgents permission', async () => {
      const id = await createdId({ name: 'Guarded', voiceId: RACHEL });
      const routes = [
        ['post', '/api/video-agent'],
        ['get', `/api/video-agent/${id}`],
        ['delete', `/api/video-agent/${id}`],
      ] as const;
      for (const [method, path] of routes) {
        await t.http[method](path).send({ name: 'x', voiceId: RACHEL }).expect(401);
        await t.http[method](path)
          .set(bearer(callsMember.token))
          .send({ name: 'x', voiceId: RACHEL })
          .expect(403);
      }
      await t.http.get('/api/video-agent/voices').expect(401);
      expect(await db().select().from(videoAgents).where(eq(videoAgents.id, id))).toHaveLength(1);
    });

    it('lists voices to any authenticated caller: the catalogue is not the organization’s', async () => {
      const response = await voices('?mode=audio', callsMember.token).expect(200);
      expect(response.body.data).toEqual(seedVoices('audio'));
    });

    it('answers 404 for an unknown id or another organization’s agent, 400 for a malformed one', async () => {
      const theirs = await createdId({ name: 'Theirs', voiceId: RACHEL }, other.token);
      for (const id of [MISSING_ID, theirs]) {
        const read = await t.http.get(`/api/video-agent/${id}`).set(bearer(admin.token));
        expect(read.status).toBe(404);
        expect(read.body).toMatchObject({
          status: false,
          code: 404,
          errorMessage: 'Video agent not found',
        });
        await t.http.delete(`/api/video-agent/${id}`).set(bearer(admin.token)).expect(404);
      }
      expect(await db().select().from(videoAgents).where(eq(videoAgents.id, theirs))).toHaveLength(
        1,
      );
      for (const method of ['get', 'delete'] as const) {
        const response = await t.http[method]('/api/video-agent/not-an-id').set(
          bearer(admin.token),
        );
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ status: false, code: 400 });
      }
    });
  });

  describe('GET /api/video-agent/voices', () => {
    it.each(['audio', 'video'] as const)(
      'lists the catalogue’s %s voices in the seed’s shape',
      async (mode) => {
        const response = await voices(`?mode=${mode}`).expect(200);
        expect(response.body).toEqual({
          message: 'Voices fetched',
          status: true,
          code: 200,
          data: seedVoices(mode),
        });
      },
    );

    it('separates the modes: OpenAI speech is audio only, ElevenLabs serves both', async () => {
      const ids = async (mode: string) =>
        ((await voices(`?mode=${mode}`).expect(200)).body.data as { id: string }[]).map(
          (voice) => voice.id,
        );
      const [audio, video] = [await ids('audio'), await ids('video')];
      expect(audio).toEqual(expect.arrayContaining(['alloy', RACHEL, 'en-us']));
      expect(video).toEqual(expect.arrayContaining([RACHEL, 'en-us']));
      expect(video).not.toContain('alloy');
    });

    it('lists every voice once without mode', async () => {
      const response = await voices('').expect(200);
      expect(response.body.data).toEqual(seedVoices());
    });

    it.each([
      ['an unknown mode', '?mode=hologram'],
      ['another case', '?mode=Audio'],
      ['an empty mode', '?mode='],
      ['a repeated mode', '?mode=audio&mode=video'],
      ['an unknown parameter', '?voice=alloy'],
    ])('answers 400 in the error envelope for %s', async (_case, query) => {
      const response = await voices(query).expect(400);
      expect(response.body).toMatchObject({ status: false, code: 400 });
      expect(response.body.errorMessage).toEqual(expect.any(String));
    });
  });
});

describe('video agents with VOICE_CATALOGUE set', () => {
  let t: TestApp;
  let admin: RegisteredAdmin;
  let dir: string;
  const catalogue = [
    {
      id: 'af_heart',
      name: 'Heart',
      language: 'EN-us',
      gender: 'female',
      provider: 'kokoro',
      modes: ['audio', 'video'],
    },
    {
      id: 'am_adam',
      name: 'Adam',
      language: 'en-US',
      gender: 'male',
      provider: 'kokoro',
      modes: ['audio'],
    },
  ];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sb-voice-catalogue-'));
    const path = join(dir, 'voices.json');
    writeFileSync(path, JSON.stringify(catalogue));
    t = await startTestApp({ env: { VOICE_CATALOGUE: path } });
    admin = await registerOrganization(t.http);
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const voices = (query: string) =>
    t.http.get(`/api/video-agent/voices${query}`).set(bearer(admin.token)).expect(200);
  const strip = ({ modes: _modes, ...voice }: (typeof catalogue)[number]) => ({
    ...voice,
    language: 'en-US',
  });

  it('lists the configured voices in place of the default ones', async () => {
    expect((await voices('')).body.data).toEqual(catalogue.map(strip));
    expect((await voices('?mode=audio')).body.data).toEqual(catalogue.map(strip));
    expect((await voices('?mode=video')).body.data).toEqual([strip(catalogue[0])]);
  });

  it('lets video agents use the configured voices only', async () => {
    const created = await t.http
      .post('/api/video-agent')
      .set(bearer(admin.token))
      .send({ name: 'Kokoro guide', voiceId: 'af_heart' })
      .expect(201);
    expect(created.body.data).toMatchObject({ voiceId: 'af_heart', language: 'en-US' });
    for (const voiceId of [RACHEL, 'am_adam']) {
      await t.http
        .post('/api/video-agent')
        .set(bearer(admin.token))
        .send({ name: 'Refused', voiceId })
        .expect(400);
    }
  });
});
