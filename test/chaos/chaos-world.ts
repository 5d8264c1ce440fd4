import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { Integration } from '../../src/modules/telephony/telephony.types';
import { PlivoFake, TelnyxFake, TwilioFake } from '../fakes';
import { ChatFake } from '../fakes/chat.fake';
import type { HttpFake } from '../fakes/http-fake';
import { OpenAiSpeechFake } from '../fakes/speech';
import * as h from '../../bench/lib/harness';
import type { BenchServer } from '../../bench/lib/harness';

const SPEECH_KEY = 'chaos-speech-key';

/** The account and number each provider's fake holds for the run. */
interface ProviderAccount {
  fake: HttpFake;
  number: string;
  /** The add-phone body fields of the account. */
  credentials: Record<string, string>;
}

/**
 * The world a chaos run dials in: the built server (its own process, on a new PostgreSQL
 * database) beside the three telephony fakes, the OpenAI-compatible chat and speech fakes, all
 * speaking their real wire protocols over loopback; a PostgreSQL client to read what the server
 * wrote. `close` removes everything.
 */
export class ChaosWorld {
  private token = '';
  private userId = '';

  private constructor(
    readonly server: BenchServer,
    readonly db: Client,
    readonly chat: ChatFake,
    readonly speech: OpenAiSpeechFake,
    readonly providers: Record<Integration, ProviderAccount>,
    readonly plivo: PlivoFake,
    readonly twilio: TwilioFake,
    readonly telnyx: TelnyxFake,
  ) {}

  static async start(env: Record<string, string> = {}): Promise<ChaosWorld> {
    const [plivo, twilio, telnyx, chat] = await Promise.all([
      PlivoFake.start(),
      TwilioFake.start(),
      TelnyxFake.start(),
      ChatFake.start(),
    ]);
    const speech = new OpenAiSpeechFake(SPEECH_KEY);
    speech.defaultTranscript = 'What are your opening hours?';
    const speechUrl = await speech.listen();
    chat.respond = (request) =>
      request.body.stream === true
        ? { kind: 'text', pieces: ['Sure.'] }
        : request.body.response_format
          ? {
              kind: 'text',
              pieces: [JSON.stringify({ successful: true, sentiment: 'neutral', optedOut: false })],
            }
          : { kind: 'text', pieces: ['A short call.'] };
    const plivoAccount = plivo.addAccount({ name: 'Chaos' });
    plivo.addNumber(plivoAccount, '+14155550201');
    const twilioAccount = twilio.addAccount({ friendlyName: 'Chaos' });
    twilio.addNumber(twilioAccount, '+14155550202');
    const telnyxAccount = telnyx.addAccount();
    telnyx.addNumber(telnyxAccount, '+14155550203');
    const providers: Record<Integration, ProviderAccount> = {
      provider_one: {
        fake: plivo,
        number: '+14155550201',
        credentials: { accSId: plivoAccount.authId, authToken: plivoAccount.authToken },
      },
      provider_two: {
        fake: twilio,
        number: '+14155550202',
        credentials: { accSId: twilioAccount.sid, authToken: twilioAccount.authToken },
      },
      provider_three: {
        fake: telnyx,
        number: '+14155550203',
        credentials: { accSId: '', authToken: telnyxAccount.apiKey },
      },
    };
    const [port, database] = await Promise.all([h.freePort(), h.createDatabase()]);
    const server = await h.startServer({
      PORT: String(port),
      DATA_DIR: h.newDataDir(),
      DATABASE_URL: database.url,
      JWT_SECRET: randomBytes(32).toString('hex'),
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      PROVIDER_ONE_API_URL: plivo.baseUrl,
      PROVIDER_TWO_API_URL: twilio.baseUrl,
      PROVIDER_THREE_API_URL: telnyx.baseUrl,
      PROVIDER_THREE_PUBLIC_KEY: telnyx.publicKey,
      LLM_API_URL: chat.url,
      LLM_API_KEY: 'chaos-llm-key',
      STT_PROVIDER: 'openai',
      STT_API_URL: speechUrl,
      STT_API_KEY: SPEECH_KEY,
      TTS_PROVIDER: 'openai',
      TTS_API_URL: speechUrl,
      TTS_API_KEY: SPEECH_KEY,
      DIALER_MAX_CONCURRENT_CALLS: '1000',
      DIALER_CALLS_PER_SECOND: '50',
      DIALER_TICK_MS: '200',
      // A deployment's choice: synthesis falls back to the offline engine (recognition has none).
      TTS_FALLBACK_PROVIDER: 'offline',
      LOG_LEVEL: 'warn',
      ...env,
    });
    const db = new Client({ connectionString: database.url });
    db.on('error', () => undefined); // dropped WITH (FORCE) at the end of the run
    await db.connect();
    const world = new ChaosWorld(server, db, chat, speech, providers, plivo, twilio, telnyx);
    await world.register();
    return world;
  }

  get fakes(): HttpFake[] {
    return [this.plivo, this.twilio, this.telnyx];
  }

  /** The server process's exit, if it exited (it never should). */
  get exit(): BenchServer['exit'] {
    return this.server.exit;
  }

  async api<T>(method: string, route: string, body?: unknown): Promise<T> {
    return (await h.json<{ data: T }>(this.server.port, method, route, body, this.token)).data;
  }

  /** Adds the three numbers and an agent; answers the agent's id and each number's phone id. */
  async setUp(agent: {
    greeting: string;
    maxCallSeconds: number;
  }): Promise<{ agentId: string; phones: Record<Integration, string> }> {
    const phones = {} as Record<Integration, string>;
    for (const [integration, account] of Object.entries(this.providers) as Array<
      [Integration, ProviderAccount]
    >) {
      const added = await this.api<{ _id: string }>('POST', '/api/call/add-phone', {
        userId: this.userId,
        phoneNumber: account.number,
        integration,
        ...account.credentials,
      });
      phones[integration] = added._id;
    }
    const created = await this.api<{ _id: string }>('POST', '/api/agents', {
      agent_name: 'Ada',
      prompt: 'You answer questions about the shop.',
      greeting: agent.greeting,
      language: 'en-US',
      interruptible: true,
      maxCallSeconds: agent.maxCallSeconds,
    });
    return { agentId: created._id, phones };
  }

  async close(): Promise<void> {
    await this.db.end().catch(() => undefined);
    if (!this.server.exit) await h.stopServer(this.server).catch(() => undefined);
    await Promise.all([
      this.plivo.close(),
      this.twilio.close(),
      this.telnyx.close(),
      this.chat.stop(),
      this.speech.close(),
    ]);
    await h.cleanup();
  }

  private async register(): Promise<void> {
    const registered = await h.json<{ data: { accessToken: string; user: { _id: string } } }>(
      this.server.port,
      'POST',
      '/api/auth/register',
      {
        organizationName: 'Chaos',
        name: 'Chaos Admin',
        email: 'chaos@example.com',
        password: 'chaos run password',
      },
    );
    this.token = registered.data.accessToken;
    this.userId = registered.data.user._id;
  }
}
