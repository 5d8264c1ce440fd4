import {
  briefingSpeech,
  plivoAnswer,
  plivoBriefing,
  plivoDial,
  plivoHold,
  telnyxSpeech,
  telnyxStreaming,
  twimlAnswer,
  twimlBriefing,
  twimlDecision,
  twimlDial,
  xmlEscape,
} from './answer-documents';
import { type AnswerPlan, NEUTRAL_LINE, planAnswer, type SpeakingAgent } from './answer-plan';

const agent: SpeakingAgent = {
  greeting: 'Hi <there> & "you"',
  voicemailMessage: "It's Acme: call us back",
  language: 'en-GB',
  voice: 'Polly.Amy',
  maxCallSeconds: 300,
};

describe('answer instructions', () => {
  it("dials a transfer's number with our calling number as caller id and its ring timeout, reporting its progress, else hangs up", () => {
    const progressUrl = 'https://sb.example.com/api/telephony/x/p/transfer-status?token=t&call=c';
    const escaped = progressUrl.replace('&', '&amp;');
    const dial = {
      to: '+14155550199',
      callerId: '+14155550100',
      ringTimeoutSeconds: 45,
      progressUrl,
    };
    // The new party's answer and the <Dial>'s end (whose reply the caller hears next) come back.
    expect(twimlDial(dial)).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response>' +
        `<Dial action="${escaped}" method="POST" callerId="+14155550100" timeout="45">` +
        `<Number statusCallbackEvent="answered" statusCallback="${escaped}" statusCallbackMethod="POST">` +
        '+14155550199</Number></Dial></Response>',
    );
    // Plivo writes numbers as digits.
    expect(plivoDial(dial)).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response>' +
        `<Dial action="${escaped}" method="POST" redirect="true" callbackUrl="${escaped}" ` +
        'callbackMethod="POST" callerId="14155550100" timeout="45">' +
        '<Number>14155550199</Number></Dial></Response>',
    );
    for (const document of [twimlDial(null), plivoDial(null)])
      expect(document).toBe('<?xml version="1.0" encoding="UTF-8"?><Response><Hangup/></Response>');
  });

  it("gives a warm transfer's new party the brief before putting them through, on their key", () => {
    const dial = {
      to: '+14155550199',
      callerId: '+14155550100',
      ringTimeoutSeconds: 45,
      progressUrl: 'https://sb.example/status?token=t&call=c',
      briefingUrl: 'https://sb.example/brief?token=t&call=c',
    };
    const brief = 'https://sb.example/brief?token=t&amp;call=c';
    expect(twimlDial(dial)).toContain(
      `<Number url="${brief}" method="POST" statusCallbackEvent="answered"`,
    );
    // The caller hears ringing until the new party took the call.
    expect(twimlDial(dial)).toContain('timeout="45" answerOnBridge="true">');
    expect(twimlDial({ ...dial, briefingUrl: undefined })).not.toContain('answerOnBridge');
    expect(plivoDial({ ...dial, holdUrl: 'https://sb.example/hold.xml' })).toContain(
      `timeout="45" dialMusic="https://sb.example/hold.xml" confirmSound="${brief}" confirmKey="1" confirmTimeout="45">`,
    );
    expect(plivoHold('https://sb.example')).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response>' +
        '<Play loop="0">https://sb.example/api/telephony/sounds/ringback.wav</Play></Response>',
    );
    const briefing = {
      speech: briefingSpeech({ language: 'en-GB', voice: 'alloy' }, 'Grace wants <Friday>.'),
      decisionUrl: 'https://sb.example/decide?token=t&call=c',
    };
    expect(twimlBriefing(briefing)).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response>' +
        '<Gather input="dtmf" numDigits="1" timeout="10" action="https://sb.example/decide?token=t&amp;call=c" method="POST">' +
        '<Say language="en-GB">Grace wants &lt;Friday&gt;. Press 1 to take the call.</Say></Gather>' +
        '<Hangup/></Response>',
    );
    expect(plivoBriefing(briefing)).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response>' +
        '<Speak language="en-GB">Grace wants &lt;Friday&gt;. Press 1 to take the call.</Speak></Response>',
    );
    // No warm transfer waiting: Twilio's whisper hangs up on the new party; Plivo reads nothing.
    expect(twimlBriefing(null)).toContain('<Hangup/>');
    expect(plivoBriefing(null)).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');
    expect(twimlDecision(true)).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');
    expect(twimlDecision(false)).toContain('<Hangup/>');
  });

  it('escapes every text and attribute and drops what XML cannot carry', () => {
    expect(xmlEscape(`a&b<c>d"e'f\u0000g\u0007h\uD800i`)).toBe(
      'a&amp;b&lt;c&gt;d&quot;e&apos;fghi',
    );
    expect(xmlEscape('tab\tline\nok')).toBe('tab\tline\nok');
  });

  it('speaks the greeting with language and voice, then hangs up (TwiML)', () => {
    expect(twimlAnswer(planAnswer(agent, 'human'))).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response>' +
        '<Say language="en-GB" voice="Polly.Amy">Hi &lt;there&gt; &amp; &quot;you&quot;</Say>' +
        '<Hangup/></Response>',
    );
  });

  it('records the whole call before speaking when asked (Plivo XML)', () => {
    const plan = planAnswer(agent, null, {
      callbackUrl: 'https://sb.example.com/api/telephony/provider_one/p/status?token=t&call=c',
      maxSeconds: 300,
    });
    expect(plivoAnswer(plan)).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response>' +
        '<Record recordSession="true" redirect="false" maxLength="300" fileFormat="mp3" ' +
        'callbackUrl="https://sb.example.com/api/telephony/provider_one/p/status?token=t&amp;call=c" ' +
        'callbackMethod="POST"/>' +
        '<Speak language="en-GB" voice="Polly.Amy">Hi &lt;there&gt; &amp; &quot;you&quot;</Speak>' +
        '<Hangup/></Response>',
    );
  });

  it('leaves the voicemail message for a machine, or nothing when the agent has none', () => {
    expect(twimlAnswer(planAnswer(agent, 'machine'))).toContain('It&apos;s Acme: call us back');
    expect(twimlAnswer(planAnswer({ ...agent, voicemailMessage: null }, 'machine'))).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Hangup/></Response>',
    );
  });

  it('says a neutral line without an agent or a greeting, in en-US by default', () => {
    expect(planAnswer(null, 'unknown')).toEqual({
      kind: 'speak',
      speech: { text: NEUTRAL_LINE, language: 'en-US', voice: null },
    });
    expect(planAnswer({ ...agent, greeting: '  ' }, 'human')).toMatchObject({
      speech: { text: NEUTRAL_LINE },
    });
  });

  it('hangs up on a call it does not know', () => {
    expect(plivoAnswer({ kind: 'hangup' })).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Hangup/></Response>',
    );
    expect(telnyxSpeech({ kind: 'hangup' })).toBeNull();
  });

  it('gives Telnyx the raw text and a voice it requires', () => {
    expect(telnyxSpeech(planAnswer({ ...agent, voice: null }, 'human'))).toEqual({
      text: 'Hi <there> & "you"',
      voice: 'female',
      language: 'en-GB',
    });
  });

  describe('connecting the media stream', () => {
    const stream: AnswerPlan = {
      kind: 'stream',
      stream: { url: 'wss://sb.example.com/api/telephony/provider_two/stream', token: 'a-b_c&d' },
    };

    it('connects TwiML to the stream with the token as a Parameter, not in the URL', () => {
      expect(twimlAnswer(stream)).toBe(
        '<?xml version="1.0" encoding="UTF-8"?><Response><Connect>' +
          '<Stream url="wss://sb.example.com/api/telephony/provider_two/stream">' +
          '<Parameter name="token" value="a-b_c&amp;d"/></Stream></Connect></Response>',
      );
    });

    it('opens a bidirectional μ-law Plivo stream that keeps the call, recording first', () => {
      const record = { callbackUrl: 'https://sb.example.com/s?token=t', maxSeconds: 60 };
      expect(plivoAnswer({ ...stream, record })).toBe(
        '<?xml version="1.0" encoding="UTF-8"?><Response>' +
          '<Record recordSession="true" redirect="false" maxLength="60" fileFormat="mp3" ' +
          'callbackUrl="https://sb.example.com/s?token=t" callbackMethod="POST"/>' +
          '<Stream bidirectional="true" keepCallAlive="true" ' +
          'contentType="audio/x-mulaw;rate=8000" extraHeaders="token=a-b_c&amp;d">' +
          'wss://sb.example.com/api/telephony/provider_two/stream</Stream></Response>',
      );
    });

    it('starts Telnyx streaming with the token in the URL query and PCMU both ways', () => {
      expect(telnyxStreaming(stream)).toEqual({
        stream_url: 'wss://sb.example.com/api/telephony/provider_two/stream?token=a-b_c%26d',
        stream_track: 'inbound_track',
        stream_bidirectional_mode: 'rtp',
        stream_bidirectional_codec: 'PCMU',
      });
      expect(telnyxStreaming(planAnswer(agent, 'human'))).toBeNull();
      expect(telnyxSpeech(stream)).toBeNull();
    });
  });
});
