import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeUlaw } from '../src/modules/voice/audio/g711';
import { encodeWav } from '../src/modules/voice/speech/wav';
import type { AnsweredCall } from '../test/fakes';
import { ChatFake } from '../test/fakes/chat.fake';
import type { Fault } from '../test/fakes/faults';
import { sandboxChatReply } from '../test/fakes/sandbox-chat';
import { type CallRecording, scriptedCall } from '../test/fakes/scripted-caller';
import type { ReceivedDelivery } from '../test/support/webhook-receiver';
import { SandboxServices } from './sandbox-services';
import { SANDBOX_DIALOGUE } from './generate-voice-fixtures';

const FIXTURES = join(__dirname, '..', 'test', 'fixtures', 'voice');
const CONTACT = { phoneNumber: '+12125550199', name: 'Grace' };
const KNOWLEDGE =
  'Our office is located at 12 Harbour Street in Springfield, next to the railway station. ' +
  'It is open from nine in the morning to five in the afternoon, Monday to Friday.';
const POST_CALL_EVENTS = ['call.summary.generated', 'call.analysis.completed'];
const EVENTS = ['call.started', 'call.answered', 'call.completed', ...POST_CALL_EVENTS];
const SAMPLE_RATE = 8000;

export interface TalkOptions {
  /** The environment the service starts with (the fakes' URLs and the demo's own win). */
  env: NodeJS.ProcessEnv;
  print: (line: string) => void;
  /** Keep both sides of the call as a .wav under the temp dir and print its path. */
  saveAudio?: boolean;
  /** Longest wait for the call and its post-call events (default 180 s). */
  timeoutMs?: number;
  /** Faults of the stand-in model's next requests (`--faults=model-…`, test/fakes/fault-plan.ts). */
  modelFaults?: Array<{ fault: Fault; count: number }>;
}

export interface TalkResult {
  turns: Array<{ role: string; text: string }>;
  /** Verified event types, in arrival order. */
  events: string[];
  unverified: number;
  audioPath?: string;
}

interface Turn {
  role: 'agent' | 'callee';
  text: string;
}
interface CallRecord {
  phoneLogs?: Array<{ callStatus: string; turns?: Turn[] }>;
}

/**
 * The sandbox's conversation (`npm run sandbox -- --talk`): one call from a batch of one, answered
 * by the fake Twilio, whose caller plays the recorded dialogue (scripts/generate-voice-fixtures.ts)
 * into the call's media stream. The agent hears it with the offline engine (PocketSphinx), thinks
 * with the chat model (a local scripted stand-in unless LLM_API_URL is set) and speaks with eSpeak
 * NG. The transcript is printed as the phone log stores it, then the signed events up to the
 * post-call summary and analysis. `close` removes everything it started or wrote.
 */
export class SandboxTalk {
  private services?: SandboxServices;
  private chat?: ChatFake;
  private secret = '';
  private readonly events: string[] = [];
  private unverified = 0;
  private recording?: Promise<CallRecording | undefined>;

  constructor(private readonly options: TalkOptions) {}

  async run(): Promise<TalkResult> {
    const { print } = this.options;
    const services = await this.start();
    const { userId } = await services.register();
    const { fakes, receiver } = services;
    const phone = await services.call<{ _id: string }>('POST', '/api/call/add-phone', {
      userId,
      phoneNumber: fakes.twilio.number,
      integration: 'provider_two',
      accSId: fakes.twilio.accountSid,
      authToken: fakes.twilio.authToken,
    });
    const knowledgeBaseId = await this.knowledgeBase(services);
    const agent = await services.call<{ _id: string }>('POST', '/api/agents', {
      agent_name: 'Ava',
      prompt: 'You answer questions about the Springfield office.',
      greeting: 'Hello, this is Ava from the Switchboard sandbox. How can I help?',
      knowledgeBaseIds: [knowledgeBaseId],
    });
    const hook = await services.call<{ secret: string }>('POST', '/api/webhooks', {
      name: 'Sandbox receiver',
      url: receiver.url('/switchboard'),
      events: EVENTS,
    });
    this.secret = hook.secret;
    print(`Agent Ava (knowledge base: "${KNOWLEDGE.split('. ')[0]}.")`);

    const twilio = fakes.twilio.fake;
    twilio.autoProgress = (to) => (to === CONTACT.phoneNumber ? 'completed' : 'failed');
    twilio.conversation = (call) => {
      this.recording = this.talk(call);
      return this.recording.then(() => undefined);
    };
    const batchId = await services.call<string>('POST', '/api/call/createBatch', {
      batchName: 'Sandbox conversation',
      callingNumbers: [phone._id],
      agentId: agent._id,
      enforceCalleeLocalHours: false,
      contacts: [CONTACT],
    });
    print(`Batch ${batchId}: dialing ${CONTACT.name} ${CONTACT.phoneNumber} through fake Twilio`);
    print('');
    const turns = await this.transcript(batchId);
    const recording = await this.recording;
    const audioPath = this.options.saveAudio && recording ? saveWav(recording) : undefined;
    print('');
    if (audioPath)
      print(`Both sides of the call, to listen to (kept; delete it after): ${audioPath}`);
    print(
      `Call over: ${turns.length} turns, ${this.events.length} signed events ` +
        `(${this.unverified} failed verification).`,
    );
    return { turns, events: [...this.events], unverified: this.unverified, audioPath };
  }

  /** Stops the service, the fakes, the chat stand-in and the receiver; removes the data. */
  async close(): Promise<void> {
    await this.services?.close();
    await this.chat?.stop();
    this.services = this.chat = undefined;
  }

  private async start(): Promise<SandboxServices> {
    const { env, print } = this.options;
    const overrides: Record<string, string> = {};
    if (env.LLM_API_URL) {
      print(`Chat model: ${env.LLM_API_URL} (LLM_API_URL)`);
    } else {
      this.chat = await ChatFake.start();
      this.chat.respond = sandboxChatReply;
      for (const { fault, count } of this.options.modelFaults ?? [])
        this.chat.faults.next(fault, count);
      Object.assign(overrides, { LLM_API_URL: this.chat.url, LLM_API_KEY: 'sandbox' });
      print(
        `No LLM_API_URL set: the agent's "model" is a local scripted stand-in at ${this.chat.url} ` +
          '(it answers from the knowledge base or repeats what it heard). Set LLM_API_URL and ' +
          'LLM_API_KEY to talk to a real model.',
      );
    }
    print('Speech: offline engine (PocketSphinx hears, eSpeak NG speaks), no account anywhere.');
    const services = await SandboxServices.start(env, overrides);
    this.services = services;
    services.receiver.onDelivery = (delivery) => this.onEvent(delivery);
    print(`Switchboard at ${services.base} (data: ${services.dataDir ?? 'DATABASE_URL'})`);
    return services;
  }

  /** A knowledge base of one text document, ready (indexed) before the call. */
  private async knowledgeBase(services: SandboxServices): Promise<string> {
    const form = new FormData();
    form.append('knowledgeBaseName', 'Springfield office');
    form.append('files', new Blob([KNOWLEDGE], { type: 'text/plain' }), 'office.txt');
    const base = await services.call<{ _id: string }>(
      'POST',
      '/api/knowledgeBase/createKnowledgeBase',
      form,
    );
    await this.until('the knowledge base to be indexed', async () => {
      const documents = await services.call<Array<{ status: string }>>(
        'GET',
        `/api/knowledgeBase/${base._id}/documents`,
      );
      if (documents.some((document) => document.status === 'failed')) {
        throw new Error('the knowledge base document could not be indexed');
      }
      return documents.every((document) => document.status === 'ready');
    });
    return base._id;
  }

  /** The caller's side: the recorded lines, each once the agent has had its say. */
  private async talk(call: AnsweredCall): Promise<CallRecording | undefined> {
    const names = Object.keys(SANDBOX_DIALOGUE);
    try {
      return await scriptedCall(call, {
        lines: names.map((name) => readFileSync(join(FIXTURES, `${name}.ulaw`))),
        onLine: (index) =>
          this.options.print(`  (caller plays "${SANDBOX_DIALOGUE[names[index]]}")`),
      });
    } catch (error) {
      this.options.print(
        `  The caller could not talk: ${error instanceof Error ? error.message : String(error)}. ` +
          'Is the offline engine installed (apt-get install pocketsphinx pocketsphinx-en-us ' +
          'espeak-ng)? Without it calls fall back to the provider speaking the greeting.',
      );
      return undefined;
    }
  }

  /** Prints each turn as the phone log stores it, until the call is over and analysed. */
  private async transcript(batchId: string): Promise<Turn[]> {
    let printed = 0;
    let turns: Turn[] = [];
    await this.until('the call and its post-call events', async () => {
      const details = await this.services!.call<{ data: CallRecord[] }>(
        'GET',
        `/api/call/batch-details/${batchId}?limit=10`,
      );
      const log = details.data[0]?.phoneLogs?.at(-1);
      turns = log?.turns ?? [];
      for (const turn of turns.slice(printed)) {
        this.options.print(`  ${turn.role === 'agent' ? 'Agent ' : 'Caller'}: ${turn.text}`);
      }
      printed = turns.length;
      const ended = log !== undefined && log.callStatus !== 'in-progress';
      return ended && POST_CALL_EVENTS.every((type) => this.events.includes(type));
    });
    return turns;
  }

  private async until(what: string, done: () => Promise<boolean>): Promise<void> {
    const deadline = Date.now() + (this.options.timeoutMs ?? 180_000);
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error(`Gave up waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  private onEvent(delivery: ReceivedDelivery): void {
    const event = this.services!.verify(delivery, this.secret);
    if (!event.verified) {
      this.unverified += 1;
      this.options.print(`  event   unverifiable delivery: ${event.reason}`);
      return;
    }
    this.events.push(event.type);
    const { summary, sentiment, disposition } = event.data;
    const detail =
      event.type === 'call.summary.generated'
        ? `summary: ${String(summary)}`
        : event.type === 'call.analysis.completed'
          ? `sentiment ${String(sentiment)}, disposition ${String(disposition)}`
          : `call ${event.data.call_id}`;
    this.options.print(`  event   ${event.type.padEnd(24)} ${detail}  (signature verified)`);
  }
}

/** Both sides mixed on one timeline, as someone on the line would hear them. */
function saveWav(recording: CallRecording): string {
  const frames = [...recording.caller, ...recording.agent];
  const end = Math.max(0, ...frames.map(({ at, audio }) => at / 1000 + audio.length / SAMPLE_RATE));
  const mix = new Int32Array(Math.ceil(end * SAMPLE_RATE));
  for (const { at, audio } of frames) {
    const start = Math.round((at / 1000) * SAMPLE_RATE);
    decodeUlaw(audio).forEach((sample, i) => (mix[start + i] += sample));
  }
  const samples = Int16Array.from(mix, (v) => Math.max(-32768, Math.min(32767, v)));
  const path = join(mkdtempSync(join(tmpdir(), 'switchboard-talk-')), 'conversation.wav');
  writeFileSync(path, encodeWav(samples, SAMPLE_RATE));
  return path;
}
