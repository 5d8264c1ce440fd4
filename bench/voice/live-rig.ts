// The voice bench's rig: the built server (through server-probe.js) on a new PostgreSQL database,
// next to the Twilio fake, the OpenAI-compatible chat fake and, unless the offline engine is
// measured, the OpenAI-compatible speech fake, all answering at once. Calls are placed the real
// way: a batch through the API, the dialer places each call at the Twilio fake, the bench answers
// it there (the fake fetches the answer TwiML) and connects to the <Stream> it names.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { TwilioFake } from '../../test/fakes';
import { ChatFake } from '../../test/fakes/chat.fake';
import { MediaStreamCaller, twimlStream } from '../../test/fakes/media-stream-caller';
import { OpenAiSpeechFake } from '../../test/fakes/speech';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const h = require('../lib/harness') as {
  ROOT: string;
  DEFAULT_ENTRY: string;
  freePort(): Promise<number>;
  createDatabase(): Promise<{ name: string; url: string }>;
  newDataDir(): string;
  startServer(env: Record<string, string>, entry?: string): Promise<RigServer>;
  stopServer(server: RigServer): Promise<unknown>;
  json<T>(port: number, method: string, route: string, body?: unknown, token?: string): Promise<T>;
};

interface RigServer {
  port: number;
  child: { pid?: number };
  output(): string;
}

export type SpeechMode = 'fake' | 'offline';

/** What the fake model says each turn: two sentences, so speech starts on the first. */
export const REPLY_PIECES = ['Sure, we open ', 'at nine. We close at five ', 'on weekdays.'];
export const GREETING = 'Hello, this is Ada from Acme.';
/** The transcript the fake recogniser gives every turn. */
const TRANSCRIPT = 'What are your opening hours?';
const SPEECH_KEY = 'bench-speech-key';

export interface ServerMemory {
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

/**
 * The probe's settings passed through from the bench's environment: its profile files, and the
 * server build it runs (an earlier build copied aside, for an A/B run).
 */
const PROBE_VARIABLES = [
  'VOICE_PROBE_CPU_PROFILE',
  'VOICE_PROBE_HEAP_PROFILE',
  'VOICE_PROBE_ENTRY',
];

export interface ServerLoad {
  cpuPercent: number;
  loopUtilization: number;
  loopDelayP50Ms: number;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
  gcCount: number;
  gcP99Ms: number;
  gcMaxMs: number;
  gcTotalMs: number;
  /** Full (mark-compact) GCs in the interval. */
  fullGcs: number;
  /** |interval − 20 ms| between media frames as the server wrote them to each socket. */
  sendJitterFrames: number;
  sendJitterP50Ms: number;
  sendJitterP99Ms: number;
  sendJitterMaxMs: number;
}

/** A call answered at the Twilio fake and streaming, with the contact it was placed to. */
export interface LiveCall {
  sid: string;
  to: string;
  /** Unique per call; the model's prompt quotes it, so a chat request tells its call. */
  contactName: string;
  caller: MediaStreamCaller;
}

/** Time a process's threads ran, and waited runnable for a CPU (Linux schedstat), in ms. */
export interface SchedTimes {
  ranMs: number;
  waitedMs: number;
}

export function schedTimes(pid: number): SchedTimes {
  const times = { ranMs: 0, waitedMs: 0 };
  try {
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const [ran, waited] = readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8')
        .split(' ')
        .map(Number);
      times.ranMs += ran / 1e6;
      times.waitedMs += waited / 1e6;
    }
  } catch {
    // Not Linux, or a thread ended while being read: NaN says "not known".
    return { ranMs: Number.NaN, waitedMs: Number.NaN };
  }
  return times;
}

/** Warns when a source file changed after the bundle was built: the bench would measure old code. */
function staleBundle(): string | undefined {
  if (!existsSync(h.DEFAULT_ENTRY)) return `${h.DEFAULT_ENTRY} is missing: run npm run build`;
  const built = statSync(h.DEFAULT_ENTRY).mtimeMs;
  const newer = (dir: string): string | undefined => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        const found = newer(full);
        if (found) return found;
      } else if (entry.name.endsWith('.ts') && statSync(full).mtimeMs > built) return full;
    }
    return undefined;
  };
  const changed = newer(path.join(h.ROOT, 'src'));
  return changed ? `${changed} is newer than the bundle: run npm run build` : undefined;
}

export class VoiceRig {
  private token = '';
  private phoneId = '';
  private agentId = '';
  private userId = '';
  private batches = 0;
  private readonly answered = new Set<string>();

  private constructor(
    readonly mode: SpeechMode,
    readonly twilio: TwilioFake,
    readonly chat: ChatFake,
    readonly speech: OpenAiSpeechFake | undefined,
    private readonly server: RigServer,
    private readonly probePort: number,
    private readonly number: string,
    private readonly account: { sid: string; authToken: string },
  ) {}

  static async start(mode: SpeechMode): Promise<VoiceRig> {
    const stale = staleBundle();
    if (stale) throw new Error(stale);
    const [twilio, chat] = await Promise.all([TwilioFake.start(), ChatFake.start()]);
    chat.respond = (request) => {
      if (request.body.stream === true) return { kind: 'text', pieces: REPLY_PIECES };
      // Post-call: a summary, or the analysis in its JSON schema.
      return request.body.response_format
        ? {
            kind: 'text',
            pieces: [JSON.stringify({ successful: true, sentiment: 'neutral', optedOut: false })],
          }
        : { kind: 'text', pieces: ['The caller asked for the opening hours.'] };
    };
    let speech: OpenAiSpeechFake | undefined;
    let speechUrl = '';
    if (mode === 'fake') {
      speech = new OpenAiSpeechFake(SPEECH_KEY);
      speech.defaultTranscript = TRANSCRIPT;
      speechUrl = await speech.listen();
    }
    const started = await VoiceRig.startServer(mode, chat.url, speechUrl, twilio.baseUrl).catch(
      async (error: unknown) => {
        // The fakes' listeners would keep the bench alive after it reports the failure.
        await closeFakes(twilio, chat, speech);
        throw error;
      },
    );
    const account = twilio.addAccount({ friendlyName: 'Voice bench' });
    const number = '+14155550142';
    twilio.addNumber(account, number);
    const rig = new VoiceRig(
      mode,
      twilio,
      chat,
      speech,
      started.server,
      started.probePort,
      number,
      account,
    );
    await rig.setUp().catch(async (error: unknown) => {
      await rig.stop();
      throw error;
    });
    return rig;
  }

  /** The built server (through the probe) on a new database, wired to the fakes. */
  private static async startServer(
    mode: SpeechMode,
    chatUrl: string,
    speechUrl: string,
    twilioUrl: string,
  ): Promise<{ server: RigServer; probePort: number }> {
    const [port, probePort, database] = await Promise.all([
      h.freePort(),
      h.freePort(),
      h.createDatabase(),
    ]);
    const speechEnv: Record<string, string> =
      mode === 'fake'
        ? {
            STT_PROVIDER: 'openai',
            STT_API_URL: speechUrl,
            STT_API_KEY: SPEECH_KEY,
            TTS_PROVIDER: 'openai',
            TTS_API_URL: speechUrl,
            TTS_API_KEY: SPEECH_KEY,
          }
        : { STT_PROVIDER: 'offline', TTS_PROVIDER: 'offline' };
    const server = await h.startServer(
      {
        PORT: String(port),
        DATA_DIR: h.newDataDir(),
        DATABASE_URL: database.url,
        JWT_SECRET: randomBytes(32).toString('hex'),
        ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
        PROVIDER_TWO_API_URL: twilioUrl,
        LLM_API_URL: chatUrl,
        LLM_API_KEY: 'bench-llm-key',
        DIALER_MAX_CONCURRENT_CALLS: '1000',
        DIALER_CALLS_PER_SECOND: '100',
        DIALER_TICK_MS: '100',
        VOICE_PROBE_PORT: String(probePort),
        // The probe's own settings, when given (server-probe.js says what each is).
        ...Object.fromEntries(
          PROBE_VARIABLES.flatMap((name) => {
            const value = process.env[name];
            return value ? [[name, value]] : [];
          }),
        ),
        ...speechEnv,
      },
      path.join(__dirname, 'server-probe.js'),
    );
    return { server, probePort };
  }

  private async setUp(): Promise<void> {
    const registered = await h.json<{ data: { accessToken: string; user: { _id: string } } }>(
      this.server.port,
      'POST',
      '/api/auth/register',
      {
        organizationName: 'Voice Bench',
        name: 'Bench Admin',
        email: 'voice-bench@example.com',
        password: 'voice bench password',
      },
    );
    this.token = registered.data.accessToken;
    this.userId = registered.data.user._id;
    const phone = await this.api<{ _id: string }>('POST', '/api/call/add-phone', {
      userId: this.userId,
      phoneNumber: this.number,
      integration: 'provider_two',
      accSId: this.account.sid,
      authToken: this.account.authToken,
    });
    this.phoneId = phone._id;
    await this.useAgent();
  }

  /** The calls placed from now on go to a new agent: Ada, with `settings` over her defaults. */
  async useAgent(settings: Record<string, unknown> = {}): Promise<void> {
    const agent = await this.api<{ _id: string }>('POST', '/api/agents', {
      agent_name: 'Ada',
      prompt: 'You answer questions about the shop.',
      greeting: GREETING,
      language: 'en-US',
      interruptible: true,
      ...settings,
    });
    this.agentId = agent._id;
  }

  private async api<T>(method: string, route: string, body?: unknown): Promise<T> {
    return (await h.json<{ data: T }>(this.server.port, method, route, body, this.token)).data;
  }

  get pid(): number | undefined {
    return this.server.child.pid;
  }

  /**
   * `count` calls placed by the dialer, answered and connected to their media stream; `onCall`
   * gets each as soon as it streams (calls do not wait for each other). Resolves with the calls
   * that could not be connected (the answer callback failed or timed out: an overloaded box).
   */
  async placeCalls(
    count: number,
    onCall: (call: LiveCall, index: number) => void,
    timeoutMs = 120_000,
  ): Promise<number> {
    this.batches += 1;
    const contacts = Array.from({ length: count }, (_, i) => ({
      // A valid NANP number per contact: exchange 2xx–9xx by batch, line by call.
      phoneNumber: `+1212${200 + this.batches}${String(i).padStart(4, '0')}`,
      name: `Caller ${this.batches}-${i}`,
    }));
    const index = new Map(contacts.map((contact, i) => [contact.phoneNumber, i]));
    await this.api('POST', '/api/call/createBatch', {
      batchName: `Voice bench ${this.batches}`,
      callingNumbers: [this.phoneId],
      agentId: this.agentId,
      enforceCalleeLocalHours: false,
      contacts,
    });
    const deadline = performance.now() + timeoutMs;
    const connecting: Promise<void>[] = [];
    let connected = 0;
    let failed = 0;
    while (connected < count) {
      for (const placed of this.twilio.calls) {
        const i = index.get(placed.to);
        if (i === undefined || this.answered.has(placed.sid)) continue;
        this.answered.add(placed.sid);
        connected += 1;
        connecting.push(
          this.answer(placed.sid).then(
            (caller) =>
              onCall({ sid: placed.sid, to: placed.to, contactName: contacts[i].name, caller }, i),
            (error: unknown) => {
              failed += 1;
              console.error(`call ${placed.sid} not connected: ${(error as Error).message}`);
            },
          ),
        );
      }
      if (performance.now() > deadline)
        throw new Error(`only ${connected} of ${count} calls placed in ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await Promise.all(connecting);
    return failed;
  }

  /** Answers a placed call at the fake and opens the stream its TwiML names. */
  private async answer(sid: string): Promise<MediaStreamCaller> {
    await this.twilio.advanceCall(sid, 'ringing');
    await this.twilio.advanceCall(sid, 'in-progress');
    const answer = this.twilio.call(sid).answerFetch;
    if (answer?.status !== 200) throw new Error(`answer fetch for ${sid}: ${answer?.status}`);
    const stream = twimlStream(answer.responseBody);
    // The bench reads only frames and marks: 100 callers keeping every message grow its heap.
    // It sends every 20 ms itself (bench/voice/scripted-caller.ts): no filler timer per call.
    const caller = await MediaStreamCaller.connect('provider_two', stream.url, {
      keepMessages: false,
      fillSilence: false,
    });
    caller.start(sid, stream.token);
    return caller;
  }

  /** Ends calls as the provider would: the callee hangs up, the socket closes, the callback comes. */
  async hangUp(calls: LiveCall[]): Promise<void> {
    for (const call of calls) call.caller.close();
    await Promise.all(calls.map((call) => call.caller.closed));
    for (const call of calls) {
      if (!this.twilio.call(call.sid).endedAt) await this.twilio.advanceCall(call.sid, 'completed');
    }
  }

  async memory(): Promise<ServerMemory> {
    return this.probe<ServerMemory>('/memory');
  }

  /** Server load since the previous call. */
  async load(): Promise<ServerLoad> {
    return this.probe<ServerLoad>('/load');
  }

  private async probe<T>(route: string): Promise<T> {
    const response = await fetch(`http://127.0.0.1:${this.probePort}${route}`);
    return (await response.json()) as T;
  }

  /** Forgets what the fakes recorded (the bench runs long; they keep every request). */
  clearRecords(): void {
    this.chat.requests.length = 0;
    this.twilio.clearRequests();
    this.twilio.deliveries.length = 0;
    if (this.speech) {
      this.speech.transcriptions.length = 0;
      this.speech.speeches.length = 0;
    }
  }

  async stop(): Promise<void> {
    await h.stopServer(this.server).catch((error: unknown) => console.error(error));
    await closeFakes(this.twilio, this.chat, this.speech);
  }

  serverOutput(): string {
    return this.server.output();
  }
}

function closeFakes(twilio: TwilioFake, chat: ChatFake, speech: OpenAiSpeechFake | undefined) {
  return Promise.all([twilio.close(), chat.stop(), speech?.close()]);
}
