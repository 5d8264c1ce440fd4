import { FRAME_BYTES } from '../media/media-stream';
import { OutboundPacer } from './outbound-pacer';
import { ULAW_SILENCE } from './paced-stream';
import type { PacerClock } from './pacer-clock';

/** A clock the test moves; timers fire in time order, optionally `lateMs` after their time. */
class FakeClock implements PacerClock {
  private time = 1_000;
  private timers: { at: number; callback: () => void }[] = [];
  lateMs = 0;

  now(): number {
    return this.time;
  }

  schedule(callback: () => void, delayMs: number): () => void {
    const timer = { at: this.time + delayMs, callback };
    this.timers.push(timer);
    return () => (this.timers = this.timers.filter((t) => t !== timer));
  }

  get pendingTimers(): number {
    return this.timers.length;
  }

  /** The event loop held for `ms`: time passes, no timer fires; overdue ones fire next advance. */
  block(ms: number): void {
    this.time += ms;
  }

  advance(ms: number): void {
    const until = this.time + ms;
    for (;;) {
      const next = [...this.timers].sort((a, b) => a.at - b.at)[0];
      if (!next || next.at + this.lateMs > until) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.time = Math.max(this.time, next.at + this.lateMs);
      next.callback();
    }
    this.time = until;
  }
}

/** A media output that records what it was sent and when. */
function recordingOutput(clock: FakeClock) {
  const frames: { at: number; ulaw: Buffer }[] = [];
  const marks: { at: number; name: string }[] = [];
  return {
    frames,
    marks,
    sendAudio: (ulaw: Buffer) => frames.push({ at: clock.now(), ulaw }),
    sendMark: (name: string) => marks.push({ at: clock.now(), name }),
  };
}

const audio = (frames: number, byte = 0x10) => Buffer.alloc(frames * FRAME_BYTES, byte);
const intervals = (times: number[]) => times.slice(1).map((t, i) => t - times[i]);

describe('OutboundPacer', () => {
  it('sends one 160-byte frame every 20 ms, starting at once, never a burst', () => {
    const clock = new FakeClock();
    const pacer = new OutboundPacer({ clock });
    const output = recordingOutput(clock);
    pacer.open(output).enqueue(audio(50));
    clock.advance(5);
    expect(output.frames).toHaveLength(1);
    clock.advance(2_000);
    expect(output.frames).toHaveLength(50);
    expect(output.frames.every((f) => f.ulaw.length === FRAME_BYTES)).toBe(true);
    expect(new Set(intervals(output.frames.map((f) => f.at)))).toEqual(new Set([20]));
  });

  it("keeps each frame's place in the stream: queued, sent, and taken back by a clear", () => {
    const clock = new FakeClock();
    const stream = new OutboundPacer({ clock }).open(recordingOutput(clock));
    stream.enqueue(audio(10));
    stream.enqueue(Buffer.alloc(FRAME_BYTES / 2));
    expect(stream.position).toBe(10.5);
    clock.advance(85);
    expect(stream.sentPosition).toBe(5);
    stream.clear();
    // The cleared frames were never sent: what is queued next follows the last one sent.
    expect(stream.position).toBe(5);
    stream.enqueue(audio(2));
    stream.mark('end');
    clock.advance(100);
    expect(stream.sentPosition).toBe(7);
    expect(stream.position).toBe(7);
  });

  it('drives many calls from one timer, each at 20 ms', () => {
    const clock = new FakeClock();
    const pacer = new OutboundPacer({ clock });
    const outputs = Array.from({ length: 100 }, () => recordingOutput(clock));
    outputs.forEach((output, i) => {
      clock.advance(i % 7);
      pacer.open(output).enqueue(audio(20));
    });
    expect(clock.pendingTimers).toBe(1);
    clock.advance(1_000);
    for (const output of outputs) {
      expect(output.frames).toHaveLength(20);
      expect(new Set(intervals(output.frames.map((f) => f.at)))).toEqual(new Set([20]));
    }
    expect(clock.pendingTimers).toBe(0);
  });

  it('keeps to the absolute grid when the timer fires late, without drifting', () => {
    const clock = new FakeClock();
    const pacer = new OutboundPacer({ clock });
    const output = recordingOutput(clock);
    pacer.open(output).enqueue(audio(100));
    clock.lateMs = 3;
    clock.advance(2_000);
    const times = output.frames.map((f) => f.at);
    expect(times).toHaveLength(100);
    // 99 periods later the last frame is still 3 ms late, not 99 × 3 ms.
    expect(times[99] - times[0]).toBeLessThanOrEqual(99 * 20 + 3);
  });

  it('sends the next frame on its grid time after one late tick', () => {
    const clock = new FakeClock();
    const pacer = new OutboundPacer({ clock });
    const output = recordingOutput(clock);
    pacer.open(output).enqueue(audio(10));
    clock.advance(39); // frames at +0 and +20; the third is due at +40
    clock.block(3); // the loop is held to +42: late, by less than a tick
    clock.advance(200);
    const times = output.frames.map((f) => f.at - output.frames[0].at);
    expect(times).toEqual([0, 20, 42, 60, 80, 100, 120, 140, 160, 180]);
  });

  it('after a stall sends the late frame alone and restarts the beat there: never two at once', () => {
    const clock = new FakeClock();
    const pacer = new OutboundPacer({ clock });
    const output = recordingOutput(clock);
    pacer.open(output).enqueue(audio(100));
    clock.advance(19); // the first frame at +0
    clock.block(26); // the frames due at +20 and +40 are both late
    clock.advance(100);
    let times = output.frames.map((f) => f.at - output.frames[0].at);
    // Sent at +45, the latest grid point passed; the beat goes on from there.
    expect(times.slice(0, 5)).toEqual([0, 45, 65, 85, 105]);

    const before = output.frames.length;
    clock.block(200); // ten frames' time
    clock.advance(100);
    times = output.frames.slice(before - 1).map((f) => f.at - output.frames[before - 1].at);
    expect(times[1]).toBeGreaterThanOrEqual(200);
    expect(times[2] - times[1]).toBeGreaterThan(10);
    expect(times[2] - times[1]).toBeLessThanOrEqual(20);
    expect(new Set(intervals(times.slice(2)))).toEqual(new Set([20]));
    const all = output.frames.map((f) => f.at);
    expect(new Set(all).size).toBe(all.length);
  });

  it('sends a frame due just after a tick on that tick, not a whole tick late', () => {
    const clock = new FakeClock();
    const pacer = new OutboundPacer({ clock });
    const first = recordingOutput(clock);
    pacer.open(first).enqueue(audio(20)); // sets the grid: ticks at +0, +5, +10…
    const second = recordingOutput(clock);
    const stream = pacer.open(second);
    clock.advance(3);
    stream.enqueue(audio(10));
    // Due at the +5 tick; make it due 2 ms after it, as a stream whose beat was set off the grid.
    stream.nextSendAt += 2;
    clock.advance(200);
    const times = second.frames.map((f) => f.at - first.frames[0].at);
    expect(times.slice(0, 3)).toEqual([5, 25, 45]);
  });

  it('starts a reply within a quarter frame while other calls keep the timer running', () => {
    const clock = new FakeClock();
    const pacer = new OutboundPacer({ clock });
    pacer.open(recordingOutput(clock)).enqueue(audio(100)); // another call speaking: ticks run
    const waits: number[] = [];
    for (let i = 0; i < 10; i++) {
      clock.advance(7); // replies become ready at every phase between two ticks
      const output = recordingOutput(clock);
      const readyAt = clock.now();
      pacer.open(output).enqueue(audio(1));
      clock.advance(5);
      waits.push(output.frames[0].at - readyAt);
    }
    expect(Math.max(...waits)).toBeLessThanOrEqual(5);
  });

  it('cuts chunks of any length into frames, continuing across chunks, padding the end with silence', () => {
    const clock = new FakeClock();
    const pacer = new OutboundPacer({ clock });
    const output = recordingOutput(clock);
    const stream = pacer.open(output);
    stream.enqueue(Buffer.alloc(100, 1));
    stream.enqueue(Buffer.alloc(100, 2));
    clock.advance(100);
    expect(output.frames).toHaveLength(2);
    const [first, second] = output.frames.map((f) => f.ulaw);
    expect(first).toEqual(Buffer.concat([Buffer.alloc(100, 1), Buffer.alloc(60, 2)]));
    expect(second).toEqual(Buffer.concat([Buffer.alloc(40, 2), Buffer.alloc(120, ULAW_SILENCE)]));
  });

  it('sends a mark when the audio before it has been sent, and lists the marks sent', () => {
    const clock = new FakeClock();
    const pacer = new OutboundPacer({ clock });
    const output = recordingOutput(clock);
    const stream = pacer.open(output);
    stream.enqueue(audio(3));
    stream.mark('sentence-1');
    stream.enqueue(audio(2));
    stream.mark('sentence-2');
    clock.advance(30);
    expect(stream.sentMarks).toEqual([]);
    clock.advance(20);
    expect(stream.sentMarks).toEqual(['sentence-1']);
    expect(output.marks).toEqual([{ at: output.frames[2].at, name: 'sentence-1' }]);
    clock.advance(100);
    expect(stream.sentMarks).toEqual(['sentence-1', 'sentence-2']);
    expect(output.marks[1].at).toBe(output.frames[4].at);
  });

  it('drops queued audio and pending marks at once on clear, then plays the next reply', async () => {
    const clock = new FakeClock();
    const pacer = new OutboundPacer({ clock });
    const output = recordingOutput(clock);
    const stream = pacer.open(output);
    stream.enqueue(audio(10, 0x11));
    stream.mark('reply-1');
    clock.advance(45);
    const drained = stream.drained();
    expect(stream.clear()).toEqual(['reply-1']);
    await expect(drained).resolves.toBeUndefined();
    clock.advance(200);
    expect(output.frames).toHaveLength(3);
    expect(stream.sentMarks).toEqual([]);
    expect(clock.pendingTimers).toBe(0);

    stream.enqueue(audio(2, 0x22));
    clock.advance(100);
    expect(output.frames.slice(3).map((f) => f.ulaw[0])).toEqual([0x22, 0x22]);
  });

  it('tells when everything queued has been sent', async () => {
    const clock = new FakeClock();
    const pacer = new OutboundPacer({ clock });
    const stream = pacer.open(recordingOutput(clock));
    await expect(stream.drained()).resolves.toBeUndefined();
    stream.enqueue(audio(5));
    let drained = false;
    void stream.drained().then(() => (drained = true));
    clock.advance(70);
    await Promise.resolve();
    expect(drained).toBe(false);
    clock.advance(30);
    await Promise.resolve();
    expect(drained).toBe(true);
  });

  it('keeps a lone call on its 20 ms beat when the next reply comes as the last one ends', async () => {
    const clock = new FakeClock();
    const pacer = new OutboundPacer({ clock });
    const output = recordingOutput(clock);
    const stream = pacer.open(output);
    stream.enqueue(audio(3));
    for (let reply = 0; reply < 3; reply++) {
      const drained = stream.drained();
      while (stream.hasAudio) clock.advance(1);
      await drained;
      stream.enqueue(audio(3));
    }
    clock.advance(200);
    expect(output.frames).toHaveLength(12);
    expect(new Set(intervals(output.frames.map((f) => f.at)))).toEqual(new Set([20]));
  });

  it('does not make up for time a stream spent idle', () => {
    const clock = new FakeClock();
    const pacer = new OutboundPacer({ clock });
    const output = recordingOutput(clock);
    const other = pacer.open(recordingOutput(clock));
    other.enqueue(audio(100)); // keeps the timer running
    const stream = pacer.open(output);
    stream.enqueue(audio(1));
    clock.advance(500);
    stream.enqueue(audio(5));
    clock.advance(200);
    expect(new Set(intervals(output.frames.slice(1).map((f) => f.at)))).toEqual(new Set([20]));
  });

  it('drops a stream whose output throws, and keeps the others going', () => {
    const clock = new FakeClock();
    const pacer = new OutboundPacer({ clock });
    const healthy = recordingOutput(clock);
    pacer
      .open({
        sendAudio: () => {
          throw new Error('socket closed');
        },
        sendMark: () => undefined,
      })
      .enqueue(audio(10));
    pacer.open(healthy).enqueue(audio(10));
    clock.advance(300);
    expect(healthy.frames).toHaveLength(10);
    expect(pacer.activeStreams).toBe(0);
  });
});
