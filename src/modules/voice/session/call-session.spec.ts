import type { PinoLogger } from 'nestjs-pino';
import { ProviderError } from '../../telephony/provider-error';
import type { TelephonyProvider } from '../../telephony/telephony.types';
import { scriptedRecognition } from '../../../../test/fakes/scripted-recognition';
import { ulawTone } from '../../../../test/fakes/ulaw-tone';
import type { AgentRow } from '../../agents/agents.schema';
import type { PhoneLogTurn } from '../../call-records/call-records.schema';
import { OutboundPacer } from '../audio/outbound-pacer';
import type { VoiceActivityDetector } from '../audio/voice-activity-detector';
import type { MediaOutput } from '../media/media-stream';
import type { StreamTokens } from '../media/stream-tokens';
import type { TextToSpeech } from '../speech/speech-engines';
import type { ProbabilityListener } from '../audio/vad-stream';
import type { ChatStreamEvent } from '../../llm/chat-model';
import type { CallContext, CallContexts } from './call-contexts';
import { BEEP_WAIT_MS } from './beep-wait';
import { CallSession, START_TIMEOUT_MS, TRANSFER_CLOSE_MS, VOICEMAIL_MARK } from './call-session';
import type { CallSignal } from './call-signals';
import type { TransferRequest } from './call-transfers';
import { DEFAULT_FLOW_TIMING } from './call-flow';
import { GREETING_MARK } from './conversation';
import { TRANSFER_FAILED } from './conversation-phrases';
import { LineAudio } from './line-audio';

class Output implements MediaOutput {
  readonly frames: Buffer[] = [];
  readonly marks: string[] = [];
  closed = false;
  refused = false;
  clears = 0;
  sendAudio(ulaw: Buffer) {
    this.frames.push(ulaw);
  }
  sendMark(name: string) {
    this.marks.push(name);
  }
  clear() {
    this.clears += 1;
  }
  close(refused?: boolean) {
    this.closed = true;
    this.refused = refused === true;
  }
}

const flush = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
};

function harness(
  options: {
    grant?: boolean;
    hangup?: () => Promise<void>;
    converse?: boolean;
    afterBeep?: boolean;
    /** What the model answers every turn; none: nothing. */
    reply?: ChatStreamEvent[];
    /** The provider accepts a transfer (default) or refuses it. */
    transfer?: boolean;
    /** A signal that arrives while the call is being loaded. */
    signalWhileLoading?: CallSignal;
    /** How long the stream may carry no caller audio (default: an hour, never in these tests). */
    mediaQuietMs?: number;
    /** The call as placed (default CA1) and the live call the token is bound to (none). */
    placedCallId?: string;
    liveCallId?: string;
    /** The conversation so far (a stream that gives the caller back after a transfer). */
    turns?: PhoneLogTurn[];
    /** What the agent does when a menu answers (default navigate). */
    onIvr?: 'navigate' | 'hang_up';
  } = {},
) {
  const prompts: Array<{ transferNumber: string | null; turns: unknown[]; answeredBy?: string }> =
    [];
  const answers: Array<{ outcome: string; machine: boolean }> = [];
  const heard: Buffer[] = [];
  const spoken: string[] = [];
  const transfers: TransferRequest[] = [];
  let signalListener: ((signal: CallSignal) => void) | undefined;
  let vadListener: ProbabilityListener = () => undefined;
  const transcripts: string[] = [];
  const warnings: Array<Record<string, unknown>> = [];
  const hangups: string[] = [];
  const endings: Array<{ endedBy: string; dependency: string | null }> = [];
  let signal: AbortSignal | undefined;
  const provider = {
    hangupCall: (_credentials: unknown, callId: string) => {
      hangups.push(callId);
      return options.hangup ? options.hangup() : Promise.resolve();
    },
  } as unknown as TelephonyProvider;
  const call: CallContext = {
    organizationId: 'o',
    phoneLogId: 'log1',
    optOut: {
      phoneNumber: '+14155550100',
      batchId: 'b',
      callRecordId: 'r',
      phoneLogId: 'log1',
      requestUuid: 'u',
    },
    agent: options.converse
      ? ({
          language: 'en-US',
          interruptible: true,
          maxCallSeconds: 600,
          transferNumber: '+14155550199',
          onIvr: options.onIvr ?? 'navigate',
          onCallScreening: 'announce',
        } as AgentRow)
      : null,
    contact: {},
    providerCallId: options.placedCallId ?? 'CA1',
    answeredAt: null,
    speech: { text: 'Hello', language: 'en-US', voice: null },
    afterBeep: options.afterBeep === true,
    voicemail: { text: 'Please call back', language: 'en-US', voice: null },
    turns: options.turns ?? [],
    provider,
    credentials: { accountId: 'a', secret: 's' },
  };
  const tts: TextToSpeech = {
    async *synthesize(text, options) {
      spoken.push(text);
      signal = options.signal;
      yield Buffer.alloc(400, 1);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      yield Buffer.alloc(400, 2);
    },
  };
  const output = new Output();
  let ended = false;
  const session = new CallSession(
    'provider_two',
    output,
    {
      tokens: {
        consume: (token?: string) =>
          Promise.resolve(
            options.grant === false || token !== 'good'
              ? null
              : { organizationId: 'o', phoneLogId: 'log1', liveCallId: options.liveCallId ?? null },
          ),
      } as unknown as StreamTokens,
      calls: {
        load: () => {
          if (options.signalWhileLoading) signalListener?.(options.signalWhileLoading);
          return Promise.resolve(call);
        },
      } as unknown as CallContexts,
      tts,
      pacer: new OutboundPacer(),
      conversation: options.converse
        ? {
            vad: {
              open: (listener: ProbabilityListener) => {
                vadListener = listener;
                return { push: (ulaw: Buffer) => heard.push(ulaw), close: () => undefined };
              },
            } as unknown as Pick<VoiceActivityDetector, 'open'>,
            stt: scriptedRecognition(transcripts),
            chat: {
              stream: () =>
                ({
                  [Symbol.asyncIterator]: () => [...(options.reply ?? [])][Symbol.iterator](),
                }) as never,
              complete: () => Promise.reject(new Error('unused')),
            },
            prompts: {
              buildRequest: (
                _org: string,
                agent: AgentRow,
                _contact: unknown,
                turns: unknown[],
                answeredBy?: string,
              ) => {
                prompts.push({
                  transferNumber: agent.transferNumber,
                  turns: [...turns],
                  ...(answeredBy && { answeredBy }),
                });
                return Promise.resolve({ messages: [] });
              },
            },
            turns: { appendTurn: () => Promise.resolve() },
            digits: { record: () => Promise.resolve() },
            dnc: { recordOptOut: () => Promise.resolve(true) },
          }
        : null,
      defaultVoice: 'en-us',
      signals: {
        listen: (_call: string, listener: (signal: CallSignal) => void) => {
          signalListener = listener;
          return () => (signalListener = undefined);
        },
      },
      transfers: {
        transfer: (request: TransferRequest) => {
          transfers.push(request);
          return Promise.resolve(options.transfer ?? true);
        },
      },
      logger: {
        info: () => undefined,
        warn: (fields: Record<string, unknown>) => warnings.push(fields),
      } as unknown as PinoLogger,
      lines: new LineAudio(tts),
      endings: {
        recordAnswerOutcome: (
          _org: string,
          _id: string,
          outcome: string,
          _afterMs: number,
          machine: boolean,
        ) => {
          answers.push({ outcome, machine });
          return Promise.resolve();
        },
        recordSessionEnd: (
          _org: string,
          _id: string,
          endedBy: string,
          dependency: string | null,
        ) => {
          endings.push({ endedBy, dependency });
          return Promise.resolve();
        },
      },
      timing: { ...DEFAULT_FLOW_TIMING, mediaQuietMs: options.mediaQuietMs ?? 3_600_000 },
    },
    () => (ended = true),
  );
  /** The caller says `transcript`: 600 ms of speech, then 600 ms of silence. */
  const utter = (transcript: string) => {
    transcripts.push(transcript);
    for (let at = 0; at < 600; at += 32) vadListener(0.9, (audioMs += 32));
    for (let at = 0; at < 600; at += 32) vadListener(0.05, (audioMs += 32));
  };
  let audioMs = 0;
  return {
    /** The provider's `start`, then its first frame of the caller's track (silence). */
    open: (token: string, providerCallId?: string) => {
      session.handle(start(token, providerCallId));
      session.handle({ kind: 'audio', ulaw: Buffer.alloc(160, 0xff) });
    },
    heard,
    spoken,
    prompts,
    answers,
    transfers,
    session,
    output,
    warnings,
    hangups,
    endings,
    utter,
    signal: () => signal,
    ended: () => ended,
    provider: (signal: CallSignal) => signalListener?.(signal),
  };
}

/** `ms` of a tone at `hz` in 20 ms frames. */
const toneFrames = (hz: number, ms: number) => {
  const ulaw = ulawTone(hz, ms);
  return Array.from({ length: ms / 20 }, (_, i) => ulaw.subarray(i * 160, (i + 1) * 160));
};

const start = (token: string, providerCallId = 'CA1') =>
  ({ kind: 'start', streamId: 'MZ1', providerCallId, token }) as const;

describe('CallSession', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('closes a socket that never presents a token', () => {
    const h = harness();
    jest.advanceTimersByTime(START_TIMEOUT_MS);
    expect(h.output).toMatchObject({ closed: true, refused: true });
    expect(h.ended()).toBe(true);
    expect(h.warnings).toEqual([{ integration: 'provider_two', reason: 'no start' }]);
  });

  it('refuses a bad token without sending or synthesizing anything', async () => {
    const h = harness();
    h.session.handle(start('forged'));
    h.session.handle({ kind: 'audio', ulaw: Buffer.alloc(160) });
    await flush();
    expect(h.output).toMatchObject({ closed: true, refused: true });
    expect(h.output.frames).toHaveLength(0);
    expect(h.signal()).toBeUndefined();
    expect(JSON.stringify(h.warnings)).not.toContain('forged');
  });

  it('paces the greeting, marks it, and hangs up only once the mark is played', async () => {
    const h = harness();
    h.open('good');
    await flush();
    jest.advanceTimersByTime(0);
    expect(h.output.frames).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(1_200);
    // Synthesis paused a second mid-frame: the pacer pads that frame rather than wait (3 + 3).
    expect(h.output.frames).toHaveLength(6);
    expect(h.output.marks).toEqual([GREETING_MARK]);
    expect(h.hangups).toEqual([]);
    h.session.handle({ kind: 'mark', name: GREETING_MARK });
    await flush();
    expect(h.hangups).toEqual(['CA1']);
    expect(h.output).toMatchObject({ closed: true, refused: false });
    expect(h.ended()).toBe(true);
  });

  it("begins on the caller's first frame: nothing is sent before it, and a stream without one begins at the bound", async () => {
    const waits = harness();
    waits.session.handle(start('good'));
    await jest.advanceTimersByTimeAsync(DEFAULT_FLOW_TIMING.firstFrameMs / 2);
    expect(waits.output.frames).toHaveLength(0);
    waits.session.handle({ kind: 'audio', ulaw: Buffer.alloc(160, 0xff) });
    await jest.advanceTimersByTimeAsync(20);
    expect(waits.output.frames.length).toBeGreaterThan(0);

    const mute = harness();
    mute.session.handle(start('good'));
    await jest.advanceTimersByTimeAsync(DEFAULT_FLOW_TIMING.firstFrameMs - 20);
    expect(mute.output.frames).toHaveLength(0);
    await jest.advanceTimersByTimeAsync(40);
    expect(mute.output.frames.length).toBeGreaterThan(0);
    expect(mute.warnings).toEqual([
      { integration: 'provider_two', call: expect.any(String) as string },
    ]);
  });

  it('ends a call whose caller audio stops, even when its first frames came while it loaded', async () => {
    const h = harness({ converse: true, mediaQuietMs: 3_000 });
    h.open('good');
    await flush();
    h.session.handle({ kind: 'audio', ulaw: Buffer.alloc(160, 0xff) });
    await jest.advanceTimersByTimeAsync(4_100);
    expect(h.endings).toEqual([{ endedBy: 'service_failure', dependency: 'media' }]);
    expect(h.hangups).toEqual(['CA1']);
  });

  it('takes the stream of the live call its answer named (Plivo CallUUID), and ends that call', async () => {
    const h = harness({ placedCallId: 'request-uuid', liveCallId: 'call-uuid' });
    h.open('good', 'call-uuid');
    await flush();
    await jest.advanceTimersByTimeAsync(1_200);
    expect(h.output.refused).toBe(false);
    expect(h.output.marks).toEqual([GREETING_MARK]);
    h.session.handle({ kind: 'mark', name: GREETING_MARK });
    await flush();
    expect(h.hangups).toEqual(['call-uuid']);
  });

  it('refuses the stream of another call than the one its token was issued for', async () => {
    for (const [placed, live, streamed] of [
      ['request-uuid', 'call-uuid', 'other-call-uuid'],
      // Bound to a live call, the placed call's id does not open it either.
      ['request-uuid', 'call-uuid', 'request-uuid'],
      ['CA1', undefined, 'CA2'],
    ] as const) {
      const h = harness({ placedCallId: placed, liveCallId: live });
      h.open('good', streamed);
      await flush();
      expect(h.output).toMatchObject({ closed: true, refused: true });
      expect(h.output.frames).toHaveLength(0);
      expect(h.warnings).toEqual([{ integration: 'provider_two', reason: 'call mismatch' }]);
    }
  });

  it('takes a call the provider already ended as ended', async () => {
    const h = harness({
      hangup: () => Promise.reject(new ProviderError('not_found', 'gone', 404)),
    });
    h.open('good');
    await jest.advanceTimersByTimeAsync(1_200);
    h.session.handle({ kind: 'mark', name: GREETING_MARK });
    await flush();
    expect(h.output.closed).toBe(true);
    expect(h.warnings).toEqual([]);
  });

  it('stops synthesis and pacing when the provider stops the stream', async () => {
    const h = harness();
    h.open('good');
    await flush();
    jest.advanceTimersByTime(0);
    h.session.handle({ kind: 'stop' });
    expect(h.signal()!.aborted).toBe(true);
    await jest.advanceTimersByTimeAsync(2_000);
    expect(h.output.frames).toHaveLength(1);
    expect(h.output.marks).toEqual([]);
    expect(h.hangups).toEqual([]);
    expect(h.ended()).toBe(true);
  });

  it('with a model, stays on the line after the greeting and listens to the caller', async () => {
    const h = harness({ converse: true });
    h.open('good');
    await jest.advanceTimersByTimeAsync(1_200);
    h.session.handle({ kind: 'mark', name: GREETING_MARK });
    h.session.handle({ kind: 'audio', ulaw: Buffer.alloc(160, 7) });
    await flush();
    expect(h.hangups).toEqual([]);
    expect(h.output.closed).toBe(false);
    expect(h.heard).toEqual([Buffer.alloc(160, 7)]);
    h.session.end();
  });

  it('back from a transfer no one answered: says so instead of greeting and goes on with the conversation so far', async () => {
    const earlier: PhoneLogTurn[] = [
      { role: 'agent', text: 'Hello', startedAt: '2026-12-02T10:00:00.000Z' },
      { role: 'callee', text: 'A person please', startedAt: '2026-12-02T10:00:02.000Z' },
    ];
    const h = harness({
      converse: true,
      turns: earlier,
      reply: [{ kind: 'text', text: 'Sure, I can help.' }],
    });
    h.open('good');
    await jest.advanceTimersByTimeAsync(1_200);
    expect(h.spoken).toEqual([TRANSFER_FAILED]);
    await jest.advanceTimersByTimeAsync(2_000);
    expect(h.session.phase).toBe('listening');
    h.utter('What does it cost?');
    await jest.advanceTimersByTimeAsync(1_200);
    // The model hears the whole call, and is no longer offered the transfer.
    expect(h.prompts).toEqual([
      {
        transferNumber: null,
        turns: [
          { role: 'agent', text: 'Hello' },
          { role: 'callee', text: 'A person please' },
          { role: 'agent', text: TRANSFER_FAILED },
          { role: 'callee', text: 'What does it cost?' },
        ],
      },
    ]);
    expect(h.spoken).toContain('Sure, I can help.');
    expect(h.hangups).toEqual([]);
    h.session.end();
  });

  it('holds a voicemail message until the beep has ended, then speaks it and hangs up', async () => {
    const h = harness({ afterBeep: true });
    h.open('good');
    await jest.advanceTimersByTimeAsync(2_000);
    // The machine's greeting (a 300 Hz tone, below every beep pitch), then its 1 kHz beep.
    for (const frame of toneFrames(300, 1_000)) h.session.handle({ kind: 'audio', ulaw: frame });
    for (const frame of toneFrames(1_000, 300)) h.session.handle({ kind: 'audio', ulaw: frame });
    await jest.advanceTimersByTimeAsync(1_000);
    expect(h.output.frames).toHaveLength(0);
    expect(h.signal()).toBeUndefined();

    h.session.handle({ kind: 'audio', ulaw: Buffer.alloc(160, 0xff) });
    await jest.advanceTimersByTimeAsync(1_200);
    expect(h.output.frames).toHaveLength(6);
    expect(h.output.marks).toEqual([VOICEMAIL_MARK]);
    h.session.handle({ kind: 'mark', name: VOICEMAIL_MARK });
    await flush();
    expect(h.hangups).toEqual(['CA1']);
    expect(h.endings).toEqual([{ endedBy: 'voicemail', dependency: null }]);
    expect(h.ended()).toBe(true);
  });

  it('speaks the voicemail message anyway when no beep comes within the bound', async () => {
    const h = harness({ afterBeep: true });
    h.open('good');
    await jest.advanceTimersByTimeAsync(BEEP_WAIT_MS - 100);
    expect(h.signal()).toBeUndefined();
    await jest.advanceTimersByTimeAsync(1_300);
    expect(h.output.frames).toHaveLength(6);
    expect(h.output.marks).toEqual([VOICEMAIL_MARK]);
  });

  it('stops waiting for the beep when the stream stops', async () => {
    const h = harness({ afterBeep: true });
    h.open('good');
    await flush();
    h.session.handle({ kind: 'stop' });
    await jest.advanceTimersByTimeAsync(BEEP_WAIT_MS + 2_000);
    expect(h.signal()).toBeUndefined();
    expect(h.output.frames).toHaveLength(0);
    expect(h.hangups).toEqual([]);
  });

  it('switches a live greeting to the voicemail message when a machine verdict arrives late', async () => {
    const h = harness({ converse: true });
    h.open('good');
    await flush();
    jest.advanceTimersByTime(0);
    expect(h.output.frames).toHaveLength(1);
    h.provider('machine');
    await flush();
    // The greeting stops at once, at the provider too; nothing is said until the beep.
    expect(h.output.clears).toBe(1);
    expect(h.signal()!.aborted).toBe(true);
    await jest.advanceTimersByTimeAsync(2_000);
    expect(h.output.frames).toHaveLength(1);
    expect(h.output.marks).toEqual([]);
    // The provider hears the beep before the local detector.
    h.provider('greeting-ended');
    await jest.advanceTimersByTimeAsync(1_200);
    expect(h.spoken).toEqual(['Hello', 'Please call back']);
    expect(h.output.marks).toEqual([VOICEMAIL_MARK]);
    // A late echo of the greeting's mark changes nothing; the message's own ends the call.
    h.session.handle({ kind: 'mark', name: GREETING_MARK });
    await flush();
    expect(h.hangups).toEqual([]);
    h.session.handle({ kind: 'mark', name: VOICEMAIL_MARK });
    await flush();
    expect(h.hangups).toEqual(['CA1']);
    expect(h.ended()).toBe(true);
  });

  it('hears a voicemail greeting the provider could not tell by its words, and leaves the message after its beep', async () => {
    const h = harness({ converse: true });
    h.open('good');
    await jest.advanceTimersByTimeAsync(1_200);
    h.session.handle({ kind: 'mark', name: GREETING_MARK });
    h.utter("Hi, you've reached Sam. Please leave a message after the tone.");
    await jest.advanceTimersByTimeAsync(1_200);
    expect(h.answers).toEqual([{ outcome: 'voicemail', machine: true }]);
    // Nothing is said to the machine until its beep; then the voicemail message.
    expect(h.spoken).not.toContain('Please call back');
    for (const frame of toneFrames(1_000, 300)) h.session.handle({ kind: 'audio', ulaw: frame });
    h.session.handle({ kind: 'audio', ulaw: Buffer.alloc(160, 0xff) });
    await jest.advanceTimersByTimeAsync(1_200);
    expect(h.spoken).toContain('Please call back');
    expect(h.output.marks).toContain(VOICEMAIL_MARK);
    h.session.handle({ kind: 'mark', name: VOICEMAIL_MARK });
    await flush();
    expect(h.hangups).toEqual(['CA1']);
    expect(h.endings).toEqual([{ endedBy: 'voicemail', dependency: null }]);
  });

  it('hangs up on a full mailbox at once, and converses with a menu', async () => {
    const full = harness({ converse: true });
    full.open('good');
    await jest.advanceTimersByTimeAsync(1_200);
    full.utter('The mailbox is full and cannot accept any new messages.');
    await jest.advanceTimersByTimeAsync(1_200);
    expect(full.answers).toEqual([{ outcome: 'mailbox_full', machine: true }]);
    expect(full.hangups).toEqual(['CA1']);
    expect(full.endings).toEqual([{ endedBy: 'voicemail', dependency: null }]);
    expect(full.spoken).not.toContain('Please call back');

    const menu = harness({ converse: true, reply: [{ kind: 'text', text: 'Pressing one.' }] });
    menu.open('good');
    await jest.advanceTimersByTimeAsync(1_200);
    menu.session.handle({ kind: 'mark', name: GREETING_MARK });
    menu.utter('For sales, press 1. For support, press 2.');
    await jest.advanceTimersByTimeAsync(1_200);
    expect(menu.answers).toEqual([{ outcome: 'ivr', machine: false }]);
    expect(menu.spoken).toContain('Pressing one.');
    // The model was told a menu answered.
    expect(menu.prompts.map((prompt) => prompt.answeredBy)).toEqual(['ivr']);
    expect(menu.hangups).toEqual([]);
    menu.session.end();

    // An agent told to leave menus hangs up on one, as its own ending.
    const leave = harness({ converse: true, onIvr: 'hang_up' });
    leave.open('good');
    await jest.advanceTimersByTimeAsync(1_200);
    leave.utter('For sales, press 1. For support, press 2.');
    await jest.advanceTimersByTimeAsync(1_200);
    expect(leave.hangups).toEqual(['CA1']);
    expect(leave.endings).toEqual([{ endedBy: 'agent', dependency: null }]);
    expect(leave.prompts).toEqual([]);
  });

  it('hangs up on a fax the provider reports, live or while the call loads, and leaves no message', async () => {
    const live = harness({ converse: true });
    live.open('good');
    await jest.advanceTimersByTimeAsync(600);
    live.provider('fax');
    await flush();
    expect(live.hangups).toEqual(['CA1']);
    expect(live.endings).toEqual([{ endedBy: 'voicemail', dependency: null }]);
    await jest.advanceTimersByTimeAsync(BEEP_WAIT_MS + 1_000);
    expect(live.spoken).not.toContain('Please call back');

    const loading = harness({ signalWhileLoading: 'fax' });
    loading.open('good');
    await jest.advanceTimersByTimeAsync(BEEP_WAIT_MS + 1_000);
    expect(loading.spoken).toEqual([]);
    expect(loading.hangups).toEqual(['CA1']);
    expect(loading.endings).toEqual([{ endedBy: 'voicemail', dependency: null }]);
  });

  it('waits for the local beep detector when the provider reports no greeting end', async () => {
    const h = harness();
    h.open('good');
    await flush();
    h.provider('machine');
    await jest.advanceTimersByTimeAsync(1_000);
    for (const frame of toneFrames(1_000, 300)) h.session.handle({ kind: 'audio', ulaw: frame });
    h.session.handle({ kind: 'audio', ulaw: Buffer.alloc(160, 0xff) });
    await jest.advanceTimersByTimeAsync(1_200);
    expect(h.spoken).toEqual(['Hello', 'Please call back']);
    expect(h.output.marks).toEqual([VOICEMAIL_MARK]);
  });

  it('starts with the voicemail message when the verdict came while the call was loading', async () => {
    const h = harness({ converse: true, signalWhileLoading: 'greeting-ended' });
    h.open('good');
    await jest.advanceTimersByTimeAsync(1_200);
    expect(h.spoken).toEqual(['Please call back']);
    expect(h.output.marks).toEqual([VOICEMAIL_MARK]);
  });

  it('hands the call over on transfer_call without hanging up, and leaves the stream to the provider', async () => {
    const h = harness({
      converse: true,
      reply: [
        { kind: 'text', text: 'Transferring you.' },
        {
          kind: 'tool-call',
          call: {
            id: 't1',
            type: 'function',
            function: { name: 'transfer_call', arguments: '{"reason":"asked"}' },
          },
        },
      ],
    });
    h.open('good');
    await jest.advanceTimersByTimeAsync(1_200);
    h.session.handle({ kind: 'mark', name: GREETING_MARK });
    h.utter('A person please');
    await jest.advanceTimersByTimeAsync(1_200);
    h.session.handle({ kind: 'mark', name: 'reply-1-1' });
    await flush();
    expect(h.transfers).toEqual([
      {
        organizationId: 'o',
        phoneLogId: 'log1',
        providerCallId: 'CA1',
        to: '+14155550199',
        reason: 'asked',
        briefing: null,
        accepted: expect.any(Function) as unknown,
      },
    ]);
    // Nothing more is heard from the caller; the call is never hung up.
    h.session.handle({ kind: 'audio', ulaw: Buffer.alloc(160, 9) });
    expect(h.heard).not.toContainEqual(Buffer.alloc(160, 9));
    expect(h.output.closed).toBe(false);
    await jest.advanceTimersByTimeAsync(TRANSFER_CLOSE_MS);
    expect(h.output).toMatchObject({ closed: true, refused: false });
    expect(h.hangups).toEqual([]);
    expect(h.ended()).toBe(true);
  });
});
