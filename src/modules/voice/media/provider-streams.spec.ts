import { encodeUlaw } from '../audio/g711';
import { PlivoStream, plivoExtraHeaders } from './plivo-stream';
import type { MessageSink } from './provider-stream';
import { TelnyxStream } from './telnyx-stream';
import { TwilioStream } from './twilio-stream';

class Sink implements MessageSink {
  readonly texts: string[] = [];
  closed: boolean | 'refused' = false;
  send(text: string): void {
    this.texts.push(text);
  }
  get sent(): unknown[] {
    return this.texts.map((text) => JSON.parse(text) as unknown);
  }
  close(refused?: boolean): void {
    this.closed = refused ? 'refused' : true;
  }
}

const frame = Buffer.alloc(160, 0x55);
const payload = frame.toString('base64');

describe('provider media streams', () => {
  it('Twilio: reads start, media, mark, stop and writes media, mark, clear with the streamSid', () => {
    const sink = new Sink();
    const stream = new TwilioStream(sink);
    expect(stream.read({ event: 'connected', protocol: 'Call' })).toBeNull();
    expect(
      stream.read({
        event: 'start',
        streamSid: 'MZ1',
        start: { streamSid: 'MZ1', callSid: 'CA1', customParameters: { token: 't0k' } },
      }),
    ).toEqual({ kind: 'start', streamId: 'MZ1', providerCallId: 'CA1', token: 't0k' });
    expect(stream.read({ event: 'media', media: { payload } })).toEqual({
      kind: 'audio',
      ulaw: frame,
    });
    expect(stream.read({ event: 'mark', mark: { name: 'm1' } })).toEqual({
      kind: 'mark',
      name: 'm1',
    });
    expect(stream.read({ event: 'stop' })).toEqual({ kind: 'stop' });
    stream.sendAudio(frame);
    stream.sendMark('m2');
    stream.clear();
    expect(sink.sent).toEqual([
      { event: 'media', streamSid: 'MZ1', media: { payload } },
      { event: 'mark', streamSid: 'MZ1', mark: { name: 'm2' } },
      { event: 'clear', streamSid: 'MZ1' },
    ]);
  });

  it('Twilio: a start without the token parameter carries none; odd shapes are ignored', () => {
    const stream = new TwilioStream(new Sink());
    expect(stream.read({ event: 'start', start: 'nonsense' })).toMatchObject({ token: undefined });
    expect(stream.read({ event: 'media', media: { payload: 42 } })).toBeNull();
    expect(stream.read({ event: 'mark', mark: null })).toBeNull();
  });

  it('Plivo: reads the token from extraHeaders, checkpoints as playedStream, clearedAudio', () => {
    const sink = new Sink();
    const stream = new PlivoStream(sink);
    expect(
      stream.read({
        event: 'start',
        start: { streamId: 'S1', callId: 'C1' },
        extra_headers: 'token=t0k;other=1',
      }),
    ).toEqual({ kind: 'start', streamId: 'S1', providerCallId: 'C1', token: 't0k' });
    expect(stream.read({ event: 'playedStream', streamId: 'S1', name: 'm1' })).toEqual({
      kind: 'mark',
      name: 'm1',
    });
    expect(stream.read({ event: 'played', streamId: 'S1', name: 'm0' })).toEqual({
      kind: 'mark',
      name: 'm0',
    });
    expect(stream.read({ event: 'clearedAudio', streamId: 'S1' })).toEqual({ kind: 'cleared' });
    stream.sendAudio(frame);
    stream.sendMark('m2');
    stream.clear();
    expect(sink.sent).toEqual([
      {
        event: 'playAudio',
        streamId: 'S1',
        media: { contentType: 'audio/x-mulaw', sampleRate: 8000, payload },
      },
      { event: 'checkpoint', streamId: 'S1', name: 'm2' },
      { event: 'clearAudio', streamId: 'S1' },
    ]);
  });

  it('Plivo: extraHeaders as an object, JSON, or the attribute’s k=v list', () => {
    expect(plivoExtraHeaders({ token: 'a', n: 1 })).toEqual({ token: 'a' });
    expect(plivoExtraHeaders('{"token":"a"}')).toEqual({ token: 'a' });
    expect(plivoExtraHeaders('token=a=b,x=y;z=1')).toEqual({ token: 'a=b', x: 'y', z: '1' });
    expect(plivoExtraHeaders('{broken')).toEqual({});
    expect(plivoExtraHeaders(undefined)).toEqual({});
  });

  it('Telnyx: caller frames out of order or twice are put back in chunk order, once', () => {
    const stream = new TelnyxStream(new Sink(), 'url-token');
    stream.read({ event: 'start', stream_id: 'S1', start: { call_control_id: 'v3:1' } });
    const media = (chunk: number) =>
      stream.read({
        event: 'media',
        sequence_number: String(chunk + 1),
        media: {
          track: 'inbound',
          chunk: String(chunk),
          timestamp: String(chunk * 20),
          payload: Buffer.alloc(160, chunk).toString('base64'),
        },
      });
    const heard = [1, 3, 2, 2, 4, 3, 5]
      .map(media)
      .flatMap((events) => (Array.isArray(events) ? events : events ? [events] : []))
      .map((event) => (event.kind === 'audio' ? event.ulaw[0] : event.kind));
    expect(heard).toEqual([1, 2, 3, 4, 5]);
  });

  it('Telnyx: token from the URL, PCMA decoded to μ-law, only the inbound track', () => {
    const sink = new Sink();
    const stream = new TelnyxStream(sink, 'url-token');
    expect(
      stream.read({
        event: 'start',
        stream_id: 'S1',
        start: { call_control_id: 'v3:1', media_format: { encoding: 'PCMA', sample_rate: 8000 } },
      }),
    ).toEqual({ kind: 'start', streamId: 'S1', providerCallId: 'v3:1', token: 'url-token' });
    // A-law 0xd5 is the smallest positive step, μ-law 0xff its counterpart (silence).
    const alaw = Buffer.alloc(160, 0xd5);
    expect(
      stream.read({
        event: 'media',
        media: { track: 'inbound', payload: alaw.toString('base64') },
      }),
    ).toEqual({
      kind: 'audio',
      ulaw: encodeUlaw(new Int16Array(160).fill(8)),
    });
    expect(stream.read({ event: 'media', media: { track: 'outbound', payload } })).toBeNull();
    stream.sendAudio(frame);
    stream.sendMark('m');
    stream.clear();
    stream.close(true);
    expect(sink.sent).toEqual([
      { event: 'media', media: { payload } },
      { event: 'mark', mark: { name: 'm' } },
      { event: 'clear' },
    ]);
    expect(sink.closed).toBe('refused');
  });

  it('writes each media message byte for byte as JSON.stringify of the message would', () => {
    // An id with characters JSON must escape: the text prebuilt around the payload escapes them.
    const id = 'MZ"\\/\u2028é';
    const frames = [
      frame,
      Buffer.alloc(160, 0xff),
      Buffer.from(Array.from({ length: 160 }, (_, i) => i)),
    ];
    const cases = [
      {
        stream: (sink: Sink) => new TwilioStream(sink),
        start: { event: 'start', start: { streamSid: id } },
        message: (payload: string) => ({ event: 'media', streamSid: id, media: { payload } }),
      },
      {
        stream: (sink: Sink) => new PlivoStream(sink),
        start: { event: 'start', start: { streamId: id } },
        message: (payload: string) => ({
          event: 'playAudio',
          streamId: id,
          media: { contentType: 'audio/x-mulaw', sampleRate: 8000, payload },
        }),
      },
      {
        stream: (sink: Sink) => new TelnyxStream(sink, 't'),
        start: { event: 'start', stream_id: id, start: {} },
        message: (payload: string) => ({ event: 'media', media: { payload } }),
      },
    ];
    for (const { stream: open, start, message } of cases) {
      const sink = new Sink();
      const stream = open(sink);
      stream.read(start);
      for (const ulaw of frames) stream.sendAudio(ulaw);
      expect(sink.texts).toEqual(
        frames.map((ulaw) => JSON.stringify(message(ulaw.toString('base64')))),
      );
    }
  });

  it('reads a pressed key from each provider, and ignores anything that is not one key', () => {
    const streams = [
      new TwilioStream(new Sink()),
      new PlivoStream(new Sink()),
      new TelnyxStream(new Sink(), 't'),
    ];
    for (const stream of streams) {
      expect(
        stream.read({
          event: 'dtmf',
          streamSid: 'MZ1',
          dtmf: { track: 'inbound_track', digit: '7' },
        }),
      ).toEqual({ kind: 'dtmf', digit: '7' });
      expect(stream.read({ event: 'dtmf', dtmf: { digit: '#' } })).toEqual({
        kind: 'dtmf',
        digit: '#',
      });
      expect(stream.read({ event: 'dtmf', dtmf: { digit: '12' } })).toBeNull();
      expect(stream.read({ event: 'dtmf', dtmf: { digit: 'x' } })).toBeNull();
      expect(stream.read({ event: 'dtmf', dtmf: 5 })).toBeNull();
    }
  });
});
