import type { PinoLogger } from 'nestjs-pino';
import type { PhoneLogTurn } from '../../call-records/call-records.schema';
import type { ChatModel, ChatRequest, ChatStreamEvent } from '../../llm/chat-model';
import { scriptedRecognition } from '../../../../test/fakes/scripted-recognition';
import { LlmError } from '../../llm/llm.error';
import { OutboundPacer } from '../audio/outbound-pacer';
import type { ProbabilityListener } from '../audio/vad-stream';
import type { VoiceActivityDetector } from '../audio/voice-activity-detector';
import type { MediaOutput } from '../media/media-stream';
import type { SpeechTiming } from '../speech/speech-engines';
import type { CallContext } from './call-contexts';
import { type CallFlowTiming, DEFAULT_FLOW_TIMING, initialFlow } from './call-flow';
import { CallFlowRunner } from './call-flow-runner';
import { Conversation, GREETING_MARK, GREETING_SHIELD_MS } from './conversation';
import {
  APOLOGY,
  HOLD_ON,
  isBackchannel,
  SERVICE_FAILURE,
  isNoTurn,
  SILENT_GOODBYE,
  STILL_THERE,
  TIME_UP,
  TRANSFER_FAILED,
} from './conversation-phrases';

type Agent = NonNullable<CallContext['agent']>;

/** The model says `said`, then calls `tool` with `{reason}`. */
const toolCall = (
  said: string,
  tool: string,
  reason: string,
  more: Record<string, unknown> = {},
): Reply =>
  async function* () {
    await Promise.resolve();
    yield { kind: 'text', text: said };
    yield {
      kind: 'tool-call',
      call: {
        id: 'c1',
        type: 'function',
        function: { name: tool, arguments: JSON.stringify({ reason, ...more }) },
      },
    };
    yield { kind: 'done', finishReason: 'tool_calls' };
  };
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
  /** How long each sentence synthesized plays (one frame by default). */
  sentenceMs?: number;
  /** What the provider says to a transfer: accepted (default) or refused. */
  transfer?: boolean;
  transferMode?: 'cold' | 'warm';
  privateDigits?: boolean;
  /** The provider echoes marks (the caller heard); false: never. */
  echo?: boolean;
  /** Synthesis of these texts fails (the speech service is down). */
  unspeakable?: string[];
  unfinishedSilenceMs?: number;
  /** Every recognition fails (the speech service is down). */
  recognitionFails?: boolean;
  timing?: Partial<CallFlowTiming>;
}) {
  let hangUps = 0;
  const transfers: Array<{
    to: string;
    reason: string | null;
    briefing: string | null;
    marks: string[];
  }> = [];
  const transferNumbers: Array<string | null> = [];
  let listener: ProbabilityListener = () => undefined;
  let audioMs = 0;
  const transcripts: string[] = [];
  const spans: Array<SpeechTiming | undefined> = [];
  const stt = scriptedRecognition(transcripts, spans);
  // A streaming engine's interim words, as the test says them.
  let interim: (words: string) => void = () => undefined;
  const streaming = {
    open: (opened: { language: string }) => ({
      ...stt.open(opened),
      ...(options.recognitionFails
        ? { finish: () => Promise.reject(new Error('speech service answered HTTP 500')) }
        : {}),
      onWords: (listener: (words: string) => void) => (interim = listener),
    }),
  };
  const requests: ChatRequest[] = [];
  const stored: PhoneLogTurn[] = [];
  const collected: Array<{ name: string; digits: string; privately: boolean }> = [];
  /** What the session was told the caller said (AnswerWatch hears it). */
  const heard: string[] = [];
  const spoken: string[] = [];
  const cleared: number[] = [];
  const marks: string[] = [];
  const output: MediaOutput = {
    sendAudio: () => undefined,
    sendMark: (name) => {
      marks.push(name);
      if (options.echo !== false) conversation.markPlayed(name);
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
      transferMode: options.transferMode ?? 'cold',
      privateDigits: options.privateDigits ?? false,
    } as Agent,
    contact: {},
    speech: { text: '', language: 'en-US', voice: null },
    turns: [],
  } as unknown as CallContext & { agent: Agent };
  const speak = (said: string, onAudio?: (chunk: Uint8Array) => void) => {
    spoken.push(said);
    if (options.unspeakable?.includes(said))
      return Promise.reject(new Error('speech service unreachable'));
    const audio = Buffer.alloc(8 * (options.sentenceMs ?? 20), 1);
    paced.enqueue(audio);
    onAudio?.(audio);
    return Promise.resolve();
  };
  // What the call session does around a conversation: runs its flow, carries out the commands
  // that are not the conversation's, and keeps the time limit.
  const endings: Array<{ endedBy: string; dependency?: string }> = [];
  // Created on first use: by greet() in `opening`, else where a greeted call is, listening.
  let runner: CallFlowRunner | undefined;
  const flowAt = (phase: 'opening' | 'listening') =>
    (runner ??= new CallFlowRunner(
      {
        ...initialFlow(),
        phase,
        converse: true,
        interruptible: options.interruptible ?? true,
      },
      {
        ...DEFAULT_FLOW_TIMING,
        silenceMs: options.silenceMs ?? 60_000,
        holdingMs: (options.unfinishedSilenceMs ?? 60_000) + 1_000,
        ...options.timing,
      },
      (command) => {
        if (conversation.execute(command)) return;
        if (command.do === 'hangUp') {
          hangUps += 1;
          endings.push({ endedBy: command.endedBy, dependency: command.dependency });
        }
      },
    ));
  const conversation = new Conversation(
    call,
    {
      vad: {
        open: (l: ProbabilityListener) => {
          listener = l;
          return { push: () => undefined, close: () => undefined };
        },
      } as unknown as Pick<VoiceActivityDetector, 'open'>,
      stt: streaming,
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
      digits: {
        record: (_org, _id, name, digits, privately) => {
          collected.push({ name, digits, privately });
          return Promise.resolve();
        },
      },
      dnc: { recordOptOut: () => Promise.resolve(true) },
      logger: { warn: () => undefined } as unknown as PinoLogger,
    },
    {
      paced,
      output,
      speak: (said, _signal, onAudio) => speak(said, onAudio),
      speakLine: (said) => speak(said),
      heard: (words) => heard.push(words),
      sendDigits: () => Promise.resolve(false),
      transfer: (ask, accepted) => {
        transfers.push({ ...ask, marks: [...marks] });
        if (options.transfer !== false) accepted();
        return Promise.resolve(options.transfer ?? true);
      },
    },
    (event) => flowAt('listening').dispatch(event),
    { unfinishedSilenceMs: options.unfinishedSilenceMs ?? 60_000 },
  );
  const timeLimit = setTimeout(
    () => flowAt('listening').dispatch({ type: 'timeUp' }),
    (options.maxCallSeconds ?? 600) * 1_000,
  );
  /** Speaks the greeting as the session would; resolves once the flow has left it. */
  const greet = async (greeting: string) => {
    call.speech = { text: greeting, language: 'en-US', voice: null };
    const flow = flowAt('opening');
    flow.dispatch({
      type: 'opened',
      plan: 'converse',
      interruptible: options.interruptible ?? true,
    });
    await until(() => flow.state.phase !== 'greeting', 'the greeting to be over');
  };
  const end = () => {
    clearTimeout(timeLimit);
    runner?.stop();
    conversation.end();
  };
  /** The caller says `transcript`: speech windows for `speechMs`, then enough silence. */
  const utter = (transcript: string, speechMs = 600, silenceMs = 600) => {
    transcripts.push(transcript);
    for (let at = 0; at < speechMs; at += 32) listener(0.9, (audioMs += 32));
    for (let at = 0; at < silenceMs; at += 32) listener(0.05, (audioMs += 32));
  };
  /** Speech windows for `speechMs` (the default) or silence, with no end of utterance. */
  const windows = (ms: number, probability = 0.9) => {
    for (let at = 0; at < ms; at += 32) listener(probability, (audioMs += 32));
  };
  const roles = () => stored.map((turn) => `${turn.role}: ${turn.text}`);
  return {
    windows,
    collected,
    phase: () => runner?.state.phase,
    interim: (words: string) => interim(words),
    transferNumbers,
    transfers,
    hangUps: () => hangUps,
    endings,
    greet,
    end,
    conversation,
    utter,
    transcripts,
    spans,
    requests,
    stored,
    heard,
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
    expect(['', 'uh-huh', '...', ' - ', '?'].every(isNoTurn)).toBe(true);
    expect(['no', 'Stop', '7', 'yes please'].some(isNoTurn)).toBe(false);
  });

  it('answers a turn sentence by sentence and stores both turns, ignoring a backchannel', async () => {
    const h = harness({ replies: [text('We open at ', 'nine. We close at five.')] });
    await h.greet('Hello!');
    h.utter('uh-huh');
    h.utter('');
    await until(() => h.transcripts.length === 0, 'both turns to be heard');
    for (let i = 0; i < 10; i++) await Promise.resolve();
    expect(h.requests).toHaveLength(0);
    h.utter('When are you open?');
    await until(() => h.stored.length === 3, 'the reply to be stored');
    expect(h.spoken).toEqual(['Hello!', 'We open at nine.', 'We close at five.']);
    expect(h.marks).toEqual(['greeting-1', GREETING_MARK, 'reply-1-1', 'reply-1-2']);
    // The agent has a transferNumber: the model is offered transfer_call.
    expect(h.transferNumbers).toEqual(['+14155550199']);
    expect(h.roles()).toEqual([
      'agent: Hello!',
      'callee: When are you open?',
      'agent: We open at nine. We close at five.',
    ]);
    // Every recognised word goes to the session's answer watch, backchannels too.
    expect(h.heard).toEqual(['uh-huh', 'When are you open?']);
    h.end();
  });

  it('asks the recogniser for the speech span of the turn (audio time) to cut with a pre-roll', async () => {
    const h = harness({ replies: [text('Hi.'), text('Yes.')] });
    // 1 s of line silence, then 608 ms of speech: 19 windows from 1,024 to 1,632 ms.
    h.utter('', 0, 1_000);
    h.utter('Hello', 600);
    await until(() => h.spans.length === 1, 'the recognition');
    expect(h.spans[0]).toEqual({ startedAtMs: 1_024, endedAtMs: 1_632 });
    h.end();
  });

  it('apologises and hangs up when the model fails for good, naming it', async () => {
    const failing: Reply = () => ({
      [Symbol.asyncIterator]: () => ({
        next: () => Promise.reject(new LlmError('timeout', 'no first byte')),
      }),
    });
    const h = harness({ replies: [failing] });
    h.utter('Hello?');
    await until(() => h.hangUps() === 1, 'the hang-up');
    expect(h.spoken).toEqual([SERVICE_FAILURE]);
    expect(h.roles()).toEqual(['callee: Hello?', `agent: ${SERVICE_FAILURE}`]);
    expect(h.endings).toEqual([{ endedBy: 'service_failure', dependency: 'llm' }]);
    h.end();
  });

  it('apologises and hangs up when a reply cannot be synthesized: no throw escapes', async () => {
    const h = harness({ replies: [text('We open at nine.')], unspeakable: ['We open at nine.'] });
    h.utter('When are you open?');
    await until(() => h.hangUps() === 1, 'the hang-up');
    expect(h.spoken).toEqual(['We open at nine.', SERVICE_FAILURE]);
    expect(h.endings).toEqual([{ endedBy: 'service_failure', dependency: 'tts' }]);
    h.end();
  });

  it('apologises and hangs up when recognition fails for good', async () => {
    const h = harness({ replies: [], recognitionFails: true });
    h.utter('Hello?');
    await until(() => h.hangUps() === 1, 'the hang-up');
    expect(h.spoken).toEqual([SERVICE_FAILURE]);
    expect(h.endings).toEqual([{ endedBy: 'service_failure', dependency: 'stt' }]);
    h.end();
  });

  it('asks again rather than stay silent when the model says nothing', async () => {
    const h = harness({ replies: [text()] });
    h.utter('Hello?');
    await until(() => h.spoken.length === 1, 'the apology');
    expect(h.spoken).toEqual([APOLOGY]);
    expect(h.hangUps()).toBe(0);
    h.end();
  });

  it('says "one moment" to a slow model, then apologises and hangs up when it never answers', async () => {
    const h = harness({ replies: [hanging], timing: { thinkingMs: 60, heldOnMs: 60 } });
    h.utter('Hello?');
    await until(() => h.hangUps() === 1, 'the hang-up');
    expect(h.spoken).toEqual([HOLD_ON, SERVICE_FAILURE]);
    expect(h.endings).toEqual([{ endedBy: 'service_failure', dependency: undefined }]);
    h.end();
  });

  it('after a cough or a failed word, the silent caller is still asked whether they are there', async () => {
    const h = harness({ replies: [], silenceMs: 60 });
    await h.greet('Hello!');
    // A short sound the recogniser makes nothing of: a no-turn, after which nobody speaks.
    h.utter('', 300);
    await until(() => h.spoken.includes(STILL_THERE), 'the re-prompt');
    h.end();
  });

  it('answers the turns said during the reply of a non-interruptible agent once, together', async () => {
    const h = harness({
      replies: [text('First answer. It is long.'), text('Both answered.')],
      interruptible: false,
      sentenceMs: 300,
    });
    h.utter('First question');
    await until(() => h.marks.includes('reply-1-1'), 'the first sentence played');
    h.utter('Second question');
    h.utter('Third question');
    await until(() => h.stored.length === 5, 'the second reply');
    expect(h.requests).toHaveLength(2);
    expect(h.requests[1].messages.map((m) => m.content)).toEqual([
      'First question',
      'First answer. It is long.',
      'Second question',
      'Third question',
    ]);
    h.end();
  });

  it("reads the model's stream on while a reply is paused for a possible interruption", async () => {
    let finished = false;
    const slow: Reply = async function* () {
      yield { kind: 'text', text: 'One. ' };
      await new Promise((resolve) => setTimeout(resolve, 150));
      yield { kind: 'text', text: 'Two.' };
      finished = true;
      yield { kind: 'done', finishReason: 'stop' };
    };
    const h = harness({ replies: [slow], sentenceMs: 300 });
    h.utter('Count');
    await until(() => h.marks.includes('reply-1-1'), 'the first sentence played');
    // Speech long enough to barge in, with no end: the reply stays paused.
    h.windows(600);
    await until(() => finished, 'the model to finish while the reply is paused');
    h.end();
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
    h.end();
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
    h.end();
  });

  it('barge-in clears the reply of an interruptible agent, not of the others', async () => {
    for (const interruptible of [true, false]) {
      const h = harness({ replies: [hanging], interruptible });
      h.utter('Tell me everything');
      await until(() => h.requests.length === 1, 'the request');
      h.utter('', 600, 0);
      expect(h.cleared).toHaveLength(interruptible ? 1 : 0);
      h.end();
    }
  });

  it('resumes a reply after a barge-in that was a backchannel or a noise, then answers a real turn', async () => {
    for (const said of ['uh-huh', '...']) {
      const h = harness({
        replies: [text('We open at nine. We close at five. On Sundays we rest.'), text('Yes.')],
        sentenceMs: 300,
      });
      h.utter('When are you open?');
      await until(() => h.marks.includes('reply-1-1'), 'the first sentence played');
      h.utter(said, 600);
      await until(() => h.stored.length === 2, 'the reply to be stored');
      expect(h.cleared).toHaveLength(1);
      expect(h.spoken).toEqual([
        'We open at nine.',
        'We close at five.',
        'On Sundays we rest.',
        'We close at five.',
        'On Sundays we rest.',
      ]);
      expect(h.roles()).toEqual([
        'callee: When are you open?',
        'agent: We open at nine. We close at five. On Sundays we rest.',
      ]);
      expect(h.requests).toHaveLength(1);
      h.utter('And on Mondays?');
      await until(() => h.stored.length === 4, 'the next answer');
      expect(h.roles().slice(-1)).toEqual(['agent: Yes.']);
      h.end();
    }
  });

  it('keeps only the heard part when the caller who barged in says something', async () => {
    const h = harness({
      replies: [text('We open at nine. We close at five. On Sundays we rest.'), text('Sure.')],
      sentenceMs: 300,
    });
    h.utter('When are you open?');
    await until(() => h.marks.includes('reply-1-1'), 'the first sentence played');
    h.utter('Wait, stop', 600);
    await until(() => h.stored.length === 4, 'the answer to the interruption');
    expect(h.cleared).toHaveLength(1);
    expect(h.spoken.filter((said) => said === 'We close at five.')).toHaveLength(1);
    expect(h.roles()).toEqual([
      'callee: When are you open?',
      'agent: We open at nine.',
      'callee: Wait, stop',
      'agent: Sure.',
    ]);
    h.end();
  });

  describe('a caller who stops mid-sentence', () => {
    const NUMBER = 'my number is five five five one two one two';
    /** The transcripts are taken and judged: nothing is left to happen but timers. */
    const judged = async (h: ReturnType<typeof harness>) => {
      await until(() => h.transcripts.length === 0, 'the words to be recognised');
      for (let i = 0; i < 10; i++) await Promise.resolve();
    };

    it('is not answered until the rest comes; one request holds both parts', async () => {
      const h = harness({ replies: [text('Thanks.')] });
      h.utter('my number is', 600, 1_000);
      await judged(h);
      expect(h.requests).toHaveLength(0);
      h.utter('five five five one two one two');
      await until(() => h.stored.length === 2, 'the reply');
      expect(h.requests).toHaveLength(1);
      expect(h.requests[0].messages.map((m) => m.content)).toEqual([NUMBER]);
      expect(h.roles()).toEqual([`callee: ${NUMBER}`, 'agent: Thanks.']);
      h.end();
    });

    it('is answered with the words held once the allowance runs out in silence', async () => {
      // The end of turn came after 512 ms of silence: 488 ms of the allowance are left.
      const h = harness({ replies: [text('Go on.')], unfinishedSilenceMs: 1_000 });
      const stopped = Date.now();
      h.utter('My number is');
      await judged(h);
      expect(h.requests).toHaveLength(0);
      await until(() => h.requests.length === 1, 'the reply to the held words');
      expect(Date.now() - stopped).toBeGreaterThanOrEqual(400);
      expect(h.requests[0].messages.map((m) => m.content)).toEqual(['My number is']);
      h.end();
    });

    it('keeps the words held through a noise, and no silence re-prompt talks over them', async () => {
      const h = harness({ replies: [text('Go on.')], silenceMs: 40, unfinishedSilenceMs: 1_000 });
      await h.greet('Hello!');
      h.utter('my address is');
      await judged(h);
      h.utter('', 300);
      await judged(h);
      // A mark echoed while the words are held (the agent's audio done) arms no re-prompt.
      h.conversation.markPlayed(GREETING_MARK);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(h.spoken).toEqual(['Hello!']);
      await until(() => h.stored.length === 3, 'the reply to the held words');
      expect(h.roles()).toEqual(['agent: Hello!', 'callee: my address is', 'agent: Go on.']);
      h.end();
    });

    it('stops the reply it barged in on, and the next words finish the turn', async () => {
      const h = harness({
        replies: [text('We open at nine. We close at five. On Sundays we rest.'), text('Sure.')],
        sentenceMs: 300,
      });
      h.utter('When are you open?');
      await until(() => h.marks.includes('reply-1-1'), 'the first sentence played');
      h.utter('but the', 600);
      await until(() => h.stored.length === 2, 'the reply cut to what was heard');
      expect(h.cleared).toHaveLength(1);
      expect(h.requests).toHaveLength(1);
      h.utter('shop on Main Street?');
      await until(() => h.stored.length === 4, 'the answer');
      expect(h.roles()).toEqual([
        'callee: When are you open?',
        'agent: We open at nine.',
        'callee: but the shop on Main Street?',
        'agent: Sure.',
      ]);
      h.end();
    });

    it("waits out the pause within one turn when a streaming engine's interim words are unfinished", async () => {
      const h = harness({ replies: [text('Thanks.')], unfinishedSilenceMs: 3_000 });
      h.windows(600);
      h.interim('my number is');
      h.windows(1_000, 0.05);
      expect(h.spans).toHaveLength(0);
      h.transcripts.push(NUMBER);
      h.windows(600);
      h.interim(NUMBER);
      h.windows(600, 0.05);
      await until(() => h.stored.length === 2, 'the reply');
      expect(h.spans).toEqual([{ startedAtMs: 0, endedAtMs: 2_240 }]);
      expect(h.requests[0].messages.map((m) => m.content)).toEqual([NUMBER]);
      h.end();
    });
  });

  describe('the greeting', () => {
    const GREETING = 'Hello Grace. This is Ada from Acme. I am calling about your order.';

    it('is cut off by a caller who talks over it; only the sentences heard are stored', async () => {
      const h = harness({ replies: [text('Sorry to bother you.')], sentenceMs: 300 });
      const greeted = h.greet(GREETING);
      await until(() => h.marks.includes('greeting-1'), 'the first sentence played');
      h.utter('No thank you');
      await greeted;
      expect(h.cleared).toHaveLength(1);
      await until(() => h.stored.length === 3, 'the reply');
      expect(h.roles()).toEqual([
        'agent: Hello Grace.',
        'callee: No thank you',
        'agent: Sorry to bother you.',
      ]);
      expect(h.marks).not.toContain(GREETING_MARK);
      expect(h.requests[0].messages.map((m) => m.content)).toEqual([
        'Hello Grace.',
        'No thank you',
      ]);
      h.end();
    });

    it('plays on through a backchannel and a short sound', async () => {
      const h = harness({ replies: [], sentenceMs: 300 });
      const greeted = h.greet(GREETING);
      await until(() => h.marks.includes('greeting-1'), 'the first sentence played');
      h.utter('uh-huh', 320);
      h.utter('', 200);
      await greeted;
      expect(h.cleared).toHaveLength(0);
      expect(h.marks).toContain(GREETING_MARK);
      expect(h.roles()).toEqual([`agent: ${GREETING}`]);
      expect(h.requests).toHaveLength(0);
      h.end();
    });

    it('resumes from the first unheard sentence when the barge-in was nothing', async () => {
      // Its first sentence outlasts the greeting's shield.
      const h = harness({ replies: [], sentenceMs: GREETING_SHIELD_MS + 100 });
      const greeted = h.greet(GREETING);
      await until(() => h.marks.includes('greeting-1'), 'the first sentence played');
      // Long enough to barge in, but the recogniser hears no words: a false interruption.
      h.utter('', 600);
      await greeted;
      expect(h.cleared).toHaveLength(1);
      const [first, second, third] = [
        'Hello Grace.',
        'This is Ada from Acme.',
        'I am calling about your order.',
      ];
      expect(h.spoken).toEqual([first, second, third, second, third]);
      // New marks for the sentences said again: an echo of a cleared one proves nothing.
      expect(h.marks).toEqual(['greeting-1', 'greeting-4', 'greeting-5', GREETING_MARK]);
      expect(h.roles()).toEqual([`agent: ${GREETING}`]);
      expect(h.requests).toHaveLength(0);
      h.end();
    });

    it('is not cut in its first 400 ms by a caller already talking or a noise; later it is', async () => {
      const h = harness({ replies: [], sentenceMs: 300 });
      const greeted = h.greet(GREETING);
      // The callee's "Hello?" began before the greeting: long enough to barge in, no words.
      h.utter('', 600);
      await until(() => h.marks.includes('greeting-1'), 'the first sentence played');
      expect(h.cleared).toHaveLength(0);
      await until(() => h.marks.includes('greeting-2'), 'the second sentence played');
      h.utter('', 600);
      await greeted;
      expect(h.cleared).toHaveLength(1);
      h.end();
    });

    it('of an agent that is not interruptible plays to the end; the turn is answered after', async () => {
      const h = harness({
        replies: [text('Sorry to bother you.')],
        interruptible: false,
        sentenceMs: 300,
      });
      const greeted = h.greet(GREETING);
      await until(() => h.marks.includes('greeting-1'), 'the first sentence played');
      h.utter('No thank you');
      await greeted;
      await until(() => h.stored.length === 3, 'the reply');
      expect(h.cleared).toHaveLength(0);
      expect(h.roles()).toEqual([
        `agent: ${GREETING}`,
        'callee: No thank you',
        'agent: Sorry to bother you.',
      ]);
      h.end();
    });
  });

  it('asks once whether a silent caller is there, then says goodbye and hangs up', async () => {
    const h = harness({ replies: [], silenceMs: 40 });
    await h.greet('Hello!');
    h.conversation.markPlayed(GREETING_MARK);
    await until(() => h.hangUps() === 1, 'the hang-up');
    expect(h.spoken).toEqual(['Hello!', STILL_THERE, SILENT_GOODBYE]);
    expect(h.roles()).toEqual([
      'agent: Hello!',
      `agent: ${STILL_THERE}`,
      `agent: ${SILENT_GOODBYE}`,
    ]);
    h.end();
  });

  it('still hangs up a silent caller when the re-prompt cannot be synthesized', async () => {
    const h = harness({ replies: [], silenceMs: 40, unspeakable: [STILL_THERE, SERVICE_FAILURE] });
    await h.greet('Hello!');
    h.conversation.markPlayed(GREETING_MARK);
    await until(() => h.hangUps() === 1, 'the hang-up');
    expect(h.spoken).toEqual(['Hello!', STILL_THERE, SERVICE_FAILURE]);
    // Nothing unheard is stored as said.
    expect(h.roles()).toEqual(['agent: Hello!']);
    expect(h.endings).toEqual([{ endedBy: 'service_failure', dependency: 'tts' }]);
    h.end();
  });

  it('ends the call at maxCallSeconds even when the last words cannot be synthesized', async () => {
    const h = harness({ replies: [hanging], maxCallSeconds: 0.2, unspeakable: [TIME_UP] });
    h.utter('Tell me everything');
    await until(() => h.hangUps() === 1, 'the hang-up');
    expect(h.spoken).toEqual([TIME_UP]);
    h.end();
  });

  it('ends the call politely at maxCallSeconds, cutting the reply under way', async () => {
    const h = harness({ replies: [hanging], maxCallSeconds: 0.2 });
    h.utter('Tell me everything');
    await until(() => h.hangUps() === 1, 'the hang-up');
    expect(h.cleared).toHaveLength(1);
    expect(h.spoken).toEqual([TIME_UP]);
    h.end();
  });

  it('transfers once what the agent said before it was heard', async () => {
    const h = harness({
      replies: [toolCall("I'm transferring you now.", 'transfer_call', 'asked for a person')],
    });
    h.utter('Can I talk to a person?');
    await until(() => h.transfers.length === 1, 'the transfer');
    expect(h.transfers[0]).toEqual({
      to: '+14155550199',
      reason: 'asked for a person',
      briefing: null,
      marks: ['reply-1-1'],
    });
    expect(h.roles()).toEqual([
      'callee: Can I talk to a person?',
      "agent: I'm transferring you now.",
    ]);
    expect(h.hangUps()).toBe(0);
    h.end();
  });

  it("briefs a warm transfer's colleague with the model's summary, else its reason", async () => {
    const summary = 'Grace wants to move her delivery to Friday.';
    const h = harness({
      transferMode: 'warm',
      replies: [
        toolCall('Let me get a colleague.', 'transfer_call', 'delivery change', { summary }),
      ],
    });
    h.utter('Can I talk to a person?');
    await until(() => h.transfers.length === 1, 'the transfer');
    expect(h.transfers[0]).toMatchObject({ reason: 'delivery change', briefing: summary });
    h.end();

    const withoutSummary = harness({
      transferMode: 'warm',
      replies: [toolCall('One moment.', 'transfer_call', 'billing question')],
    });
    withoutSummary.utter('Can I talk to a person?');
    await until(() => withoutSummary.transfers.length === 1, 'the transfer');
    expect(withoutSummary.transfers[0]).toMatchObject({ briefing: 'billing question' });
    withoutSummary.end();
  });

  describe('collect_digits', () => {
    const asking = toolCall('Please type your 4-digit PIN.', 'collect_digits', '', {
      name: 'pin',
      max_digits: 4,
    });
    const said = (h: ReturnType<typeof harness>, n: number) =>
      JSON.stringify(h.requests[n]?.messages ?? []);
    const press = (h: ReturnType<typeof harness>, keys: string) =>
      [...keys].forEach((key) => h.conversation.keyPressed(key));

    it('gathers the keys typed after the request exactly, as one turn the model answers', async () => {
      const h = harness({ replies: [asking, text('Thank you.')] });
      h.utter('I want my balance');
      await until(() => h.phase() === 'collectingDigits', 'the entry to open');
      // Slowly, one key at a time: no pause of the keypad splits the entry.
      press(h, '12');
      press(h, '34');
      await until(() => h.requests.length === 2, 'the answer to the entry');
      expect(said(h, 1)).toContain('[The caller entered 1234 for pin]');
      expect(h.collected).toEqual([{ name: 'pin', digits: '1234', privately: false }]);
      expect(h.roles()).toContain('callee: [The caller entered 1234 for pin]');
      h.end();
    });

    it('keeps private digits from the model and the transcript, and has the phone log seal them', async () => {
      const h = harness({ replies: [asking, text('Thank you.')], privateDigits: true });
      h.utter('I want my balance');
      await until(() => h.phase() === 'collectingDigits', 'the entry to open');
      press(h, '9876');
      await until(() => h.requests.length === 2, 'the answer to the entry');
      expect(said(h, 1)).toContain('[The caller entered 4 digits (kept from you) for pin]');
      expect(said(h, 1)).not.toContain('9876');
      expect(JSON.stringify(h.stored)).not.toContain('9876');
      expect(h.collected).toEqual([{ name: 'pin', digits: '9876', privately: true }]);
      h.end();
    });

    it('ends the entry on # or on a pause, saying how much was typed', async () => {
      const h = harness({
        replies: [asking, asking, text('OK.')],
        timing: { digitsMs: 300 },
      });
      h.utter('I want my balance');
      await until(() => h.phase() === 'collectingDigits', 'the entry to open');
      press(h, '12#');
      await until(() => h.requests.length === 2, 'the answer to the entry');
      expect(said(h, 1)).toContain('[The caller entered 12 for pin: fewer than the 4 asked]');
      await until(() => h.phase() === 'collectingDigits', 'the second entry to open');
      press(h, '5');
      await until(() => h.requests.length === 3, 'the pause to end it');
      expect(said(h, 2)).toContain('[The caller entered 5 for pin: fewer than the 4 asked]');
      h.end();
    });

    it('answers a caller who speaks instead of typing, with what they typed so far', async () => {
      const h = harness({ replies: [asking, text('No problem.')] });
      h.utter('I want my balance');
      await until(() => h.phase() === 'collectingDigits', 'the entry to open');
      h.utter("I don't have it");
      await until(() => h.requests.length === 2, 'the answer');
      const messages = said(h, 1);
      expect(messages).toContain('[The caller entered no digits for pin]');
      expect(messages.indexOf('no digits for pin')).toBeLessThan(
        messages.indexOf("I don't have it"),
      );
      expect(h.collected).toEqual([]);
      h.end();
    });

    it('collects nothing when the caller cuts the request short', async () => {
      const h = harness({ replies: [asking, text('Sure.'), text('OK.')] });
      h.utter('I want my balance');
      await until(() => h.spoken.length > 0, 'the request under way');
      h.utter('Actually, never mind', 900);
      await until(() => h.requests.length === 2, 'the answer to the interruption');
      // A key now is an ordinary keypad turn, not part of an entry nobody heard asked for.
      press(h, '1');
      await until(() => h.requests.length === 3, 'the key answered');
      expect(said(h, 2)).toContain('[The caller pressed 1 on the keypad]');
      expect(h.collected).toEqual([]);
      h.end();
    });
  });

  it('waits a bounded time for the last words to be heard before transferring', async () => {
    const h = harness({
      replies: [toolCall('One moment.', 'transfer_call', 'billing')],
      echo: false,
    });
    h.utter('Billing please');
    await until(() => h.spoken.length === 1, 'the words before the transfer');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(h.transfers).toHaveLength(0);
    h.conversation.markPlayed('reply-1-1');
    await until(() => h.transfers.length === 1, 'the transfer');
    h.end();
  });

  it('apologises for a refused transfer, goes on talking, and stops offering the tool', async () => {
    const h = harness({
      replies: [toolCall('Transferring you.', 'transfer_call', 'asked'), text('Of course.')],
      transfer: false,
    });
    h.utter('A human please');
    await until(() => h.spoken.includes(TRANSFER_FAILED), 'the apology');
    await until(() => h.stored.length === 3, 'the apology stored');
    expect(h.roles().slice(-1)).toEqual([`agent: ${TRANSFER_FAILED}`]);
    h.utter('Then tell me the price');
    await until(() => h.stored.length === 5, 'the next answer');
    expect(h.roles().slice(-1)).toEqual(['agent: Of course.']);
    expect(h.transferNumbers).toEqual(['+14155550199', null]);
    expect(h.hangUps()).toBe(0);
    h.end();
  });
});
