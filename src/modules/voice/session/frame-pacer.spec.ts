import { FramePacer } from './frame-pacer';

describe('FramePacer', () => {
  let clock = 0;
  const now = () => clock;
  beforeEach(() => {
    jest.useFakeTimers();
    clock = 0;
  });
  afterEach(() => jest.useRealTimers());

  /** Moves the fake clock and its timers together, one millisecond at a time. */
  const advance = (ms: number) => {
    for (let i = 0; i < ms; i++) {
      clock += 1;
      jest.advanceTimersByTime(1);
    }
  };

  it('sends the first frame at once, then one per frame period, never a burst', () => {
    const sent: number[] = [];
    const pacer = new FramePacer(() => sent.push(clock), 20, now);
    for (let i = 0; i < 5; i++) pacer.push(Buffer.alloc(1));
    advance(0);
    jest.advanceTimersByTime(0);
    advance(100);
    expect(sent).toEqual([0, 20, 40, 60, 80]);
  });

  it('restarts its clock after running dry instead of catching up', () => {
    const sent: number[] = [];
    const pacer = new FramePacer(() => sent.push(clock), 20, now);
    pacer.push(Buffer.alloc(1));
    jest.advanceTimersByTime(0);
    advance(100);
    pacer.push(Buffer.alloc(1));
    pacer.push(Buffer.alloc(1));
    jest.advanceTimersByTime(0);
    advance(40);
    expect(sent).toEqual([0, 100, 120]);
  });

  it('resolves drained when the queue is sent, and stop drops the rest', async () => {
    const sent: Buffer[] = [];
    const pacer = new FramePacer((frame) => sent.push(frame), 20, now);
    pacer.push(Buffer.from([1]));
    pacer.push(Buffer.from([2]));
    pacer.push(Buffer.from([3]));
    const drained = pacer.drained();
    jest.advanceTimersByTime(0);
    advance(20);
    pacer.stop();
    await drained;
    advance(100);
    expect(sent.map((frame) => frame[0])).toEqual([1, 2]);
    await expect(pacer.drained()).resolves.toBeUndefined();
  });
});
