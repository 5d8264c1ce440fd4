import type { PinoLogger } from 'nestjs-pino';
import type { PhoneLogTurn } from '../../call-records/call-records.schema';
import type { ChatModel, ChatRequest, ChatStreamEvent } from '../../llm/chat-model';
import { scriptedRecognition } from '../../../../test/fakes/scripted-recognition';
import { LlmError } from '../../llm/llm.error';
import { OutboundPacer } from '../audio/outbound-pacer';
import type { ProbabilityListener } from '../audio/vad-stream';
import type { VoiceActivityDetector } from '../audio/voice-activity-detector';
import type { MediaOutput } from '../media/media-stream';
import type { CallContext } from './call-contexts';
import { Conversation } from './conversation';
import {
  APOLOGY,
  isBackchannel,
  SILENT_GOODBYE,
  STILL_THERE,
  TIME_UP,
} from './conversation-phrases';

type Agent = NonNullable<CallContext['agent']>;
type Reply = (request: ChatRequest) => AsyncIterable<ChatStreamEvent>;

const text = (...pieces: string[]): Reply =>
  async function* () {
    for (const piece of pieces) {
      await Promise.resolve();
      yield { kind: 'text', text: piece };
    }
    yield { kind: 'done', finishReason: 'stop' };
  };

/** A model that never answers until the request is aborted. */
const hanging: Reply = (request) => ({
  [Symbol.asyncIterator]: () => ({
    next: () =>
      new Promise<IteratorResult<ChatStreamEvent>>((_, reject) =>
        request.signal!.addEventListener('abort', () => reject(new Error('aborted'))),
      ),
  }),
});

async function until(probe: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 3_000;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function harness(options: {
  replies: Reply[];
  interruptible?: boolean;
  maxCallSeconds?: number;
  silenceMs?: number;
  /** Synthesis of these texts fails (the speech service is down). */
  unspeakable?: string[];
}) {
  let hangUps = 0;
  const transferNumbers: Array<string | null> = [];
  let listener: ProbabilityListener = () => undefined;
  let audioMs = 0;
  const transcripts: string[] = [];
  const requests: ChatRequest[] = [];
  const stored: PhoneLogTurn[] = [];
  const spoken: string[] = [];
  const cleared: number[] = [];
  const marks: string[] = [];
  const output: MediaOutput = {
    sendAudio: () => undefined,
    sendMark: (name) => {
      marks.push(name);
      conversation.markPlayed(name);
    },
    clear: () => cleared.push(Date.now()),
    close: () => undefined,
  };
  const paced = new OutboundPacer().open(output);
  const chat: ChatModel = {
    stream: (request) => {
      requests.push(request);
      return (options.replies.shift() ?? text('OK.'))(request);
    },
    complete: () => Promise.reject(new Error('not used')),
  };
  const call = {
    organizationId: 'o',
    phoneLogId: 'log1',
    agent: {
      language: 'en-US',
      interruptible: options.interruptible ?? true,
      maxCallSeconds: options.maxCallSeconds ?? 600,
      transferNumber: '+14155550199',
    } as Agent,
    contact: {},
  } as unknown as CallContext & { agent: Agent };
  const conversation = new Conversation(
    call,
    {
      vad: {
        open: (l: ProbabilityListener) => {
          listener = l;
          return { push: () => undefined, close: () => undefined };
        },
      } as unknown as Pick<VoiceActivityDetector, 'open'>,
      stt: scriptedRecognition(transcripts),
      chat,
      prompts: {
        buildRequest: (_org, agent, _contact, turns) => {
          transferNumbers.push(agent.transferNumber);
          return Promise.resolve({
            messages: turns.map((t) => ({ role: 'user', content: t.text })),
          });
        },
      },
      turns: {
        appendTurn: (_org, _id, turn) => {
          stored.push(turn);
          return Promise.resolve();
        },
      },
      dnc: { recordOptOut: () => Promise.resolve(true) },
      logger: { warn: () => undefined } as unknown as PinoLogger,
    },
    {
      paced,
      output,
      speak: (said) => {
        spoken.push(said);
        if (options.unspeakable?.includes(said))
          return Promise.reject(new Error('speech service unreachable'));
        paced.enqueue(Buffer.alloc(160, 1));
        return Promise.resolve();
      },
      hangUp: () => {
        hangUps += 1;
        return Promise.resolve();
      },
    },
    { silenceMs: options.silenceMs ?? 60_000 },
  );
  /** The caller says `transcript`: speech windows for `speechMs`, then enough silence. */
  const utter = (transcript: string, speechMs = 600, silenceMs = 600) => {
    transcripts.push(transcript);
    for (let at = 0; at < speechMs; at += 32) listener(0.9, (audioMs += 32));
    for (let at = 0; at < silenceMs; at += 32) listener(0.05, (audioMs += 32));
  };
  const roles = () => stored.map((turn) => `${turn.role}: ${turn.text}`);
  return {
    transferNumbers,
    hangUps: () => hangUps,
    conversation,
    utter,
    transcripts,
    requests,
    stored,
    roles,
    spoken,
    cleared,
    marks,
  };
}

describe('Conversation', () => {
  it('takes backchannels and empty transcripts as no turn', () => {
    expect(['uh-huh', 'Yeah.', 'OK', 'right!', 'Mm-hmm'].every(isBackchannel)).toBe(true);
    expect(isBackchannel('yes please')).toBe(false);
  });

  it('answers a turn sentence by sentence and stores both turns, ignoring a backchannel', async () => {
    const h = harness({ replies: [text('We open at ', 'nine. We close at five.')] });
    h.conversation.greeted('Hello!', new Date().toISOString());
    h.utter('uh-huh');
    h.utter('');
    await until(() => h.transcripts.length === 0, 'both turns to be heard');
    for (let i = 0; i < 10; i++) await Promise.resolve();
    expect(h.requests).toHaveLength(0);
    h.utter('When are you open?');
    await until(() => h.stored.length === 3, 'the reply to be stored');
    expect(h.spoken).toEqual(['We open at nine.', 'We close at five.']);
    expect(h.marks).toEqual(['reply-1-1', 'reply-1-2']);
    // transfer_call is not carried out yet, so the model is not offered it.
    expect(h.transferNumbers).toEqual([null]);
    expect(h.roles()).toEqual([
      'agent: Hello!',
      'callee: When are you open?',
      'agent: We open at nine. We close at five.',
    ]);
    h.conversation.end();
  });

  it('apologises when the model fails, and answers the next turn', async () => {
    const failing: Reply = () => ({
      [Symbol.asyncIterator]: () => ({
        next: () => Promise.reject(new LlmError('timeout', 'no first byte')),
      }),
    });
    const h = harness({ replies: [failing, text('Sure.')] });
    h.utter('Hello?');
    await until(() => h.stored.length === 2, 'the apology');
    expect(h.spoken).toEqual([APOLOGY]);
    h.utter('Can you hear me?');
    await until(() => h.stored.length === 4, 'the answer');
    expect(h.roles().slice(-1)).toEqual(['agent: Sure.']);
    h.conversation.end();
  });

  it('answers two quick turns once: the second cancels the first reply and both are sent', async () => {
    const h = harness({ replies: [hanging, text('Both answered.')] });
    h.utter('I want to ask');
    await until(() => h.requests.length === 1, 'the first request');
    h.utter('about my order');
    await until(() => h.stored.length === 3, 'the one reply');
    expect(h.requests).toHaveLength(2);
    expect(h.requests[1].messages.map((m) => m.content)).toEqual([
      'I want to ask',
      'about my order',
    ]);
    expect(h.roles()).toEqual([
      'callee: I want to ask',
      'callee: about my order',
      'agent: Both answered.',
    ]);
    h.conversation.end();
  });

  it('answers a turn that ends during the reply of a non-interruptible agent after it', async () => {
    const h = harness({
      replies: [text('First answer.'), text('Second answer.')],
      interruptible: false,
    });
    h.utter('First question');
    h.utter('Second question');
    await until(() => h.stored.length === 4, 'both replies');
    expect(h.cleared).toHaveLength(0);
    expect(h.roles()).toEqual([
      'callee: First question',
      'agent: First answer.',
      'callee: Second question',
      'agent: Second answer.',
    ]);
    h.conversation.end();
  });

  it('barge-in clears the reply of an interruptible agent, not of the others', async () => {
    for (const interruptible of [true, false]) {
      const h = harness({ replies: [hanging], interruptible });
      h.utter('Tell me everything');
      await until(() => h.requests.length === 1, 'the request');
      h.utter('', 600, 0);
      expect(h.cleared).toHaveLength(interruptible ? 1 : 0);
      h.conversation.end();
    }
  });

  it('asks once whether a silent caller is there, then says goodbye and hangs up', async () => {
    const h = harness({ replies: [], silenceMs: 40 });
    h.conversation.greeted('Hello!', new Date().toISOString());
    h.conversation.markPlayed('greeting-end');
    await until(() => h.hangUps() === 1, 'the hang-up');
    expect(h.spoken).toEqual([STILL_THERE, SILENT_GOODBYE]);
    expect(h.roles()).toEqual([
      'agent: Hello!',
      `agent: ${STILL_THERE}`,
      `agent: ${SILENT_GOODBYE}`,
    ]);
    h.conversation.end();
  });

  it('still hangs up a silent caller when the re-prompt and the goodbye cannot be synthesized', async () => {
    const h = harness({ replies: [], silenceMs: 40, unspeakable: [STILL_THERE, SILENT_GOODBYE] });
    h.conversation.greeted('Hello!', new Date().toISOString());
    h.conversation.markPlayed('greeting-end');
    await until(() => h.hangUps() === 1, 'the hang-up');
    expect(h.spoken).toEqual([STILL_THERE, SILENT_GOODBYE]);
    // Nothing unheard is stored as said.
    expect(h.roles()).toEqual(['agent: Hello!']);
    h.conversation.end();
  });

  it('ends the call at maxCallSeconds even when the last words cannot be synthesized', async () => {
    const h = harness({ replies: [hanging], maxCallSeconds: 0.2, unspeakable: [TIME_UP] });
    h.utter('Tell me everything');
    await until(() => h.hangUps() === 1, 'the hang-up');
    expect(h.spoken).toEqual([TIME_UP]);
    h.conversation.end();
  });

  it('ends the call politely at maxCallSeconds, cutting the reply under way', async () => {
    const h = harness({ replies: [hanging], maxCallSeconds: 0.2 });
    h.utter('Tell me everything');
    await until(() => h.hangUps() === 1, 'the hang-up');
    expect(h.cleared).toHaveLength(1);
    expect(h.spoken).toEqual([TIME_UP]);
    h.conversation.end();
  });
});
