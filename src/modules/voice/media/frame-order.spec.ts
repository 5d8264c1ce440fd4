import { FrameOrder, REORDER_WINDOW } from './frame-order';

const frame = (n: number) => Buffer.alloc(160, n);
const numbers = (frames: Buffer[]) => frames.map((f) => f[0]);

describe('FrameOrder', () => {
  it('passes frames in order at once', () => {
    const order = new FrameOrder();
    expect([1, 2, 3].flatMap((n) => numbers(order.push(n, frame(n))))).toEqual([1, 2, 3]);
  });

  it('holds a frame that came early until the missing one arrives, then lets both through', () => {
    const order = new FrameOrder();
    expect(numbers(order.push(1, frame(1)))).toEqual([1]);
    expect(order.push(3, frame(3))).toEqual([]);
    expect(order.push(4, frame(4))).toEqual([]);
    expect(numbers(order.push(2, frame(2)))).toEqual([2, 3, 4]);
    expect(numbers(order.push(5, frame(5)))).toEqual([5]);
  });

  it('drops duplicates: one already passed, and one held', () => {
    const order = new FrameOrder();
    order.push(1, frame(1));
    expect(order.push(1, frame(1))).toEqual([]);
    order.push(3, frame(3));
    expect(order.push(3, frame(3))).toEqual([]);
    expect(numbers(order.push(2, frame(2)))).toEqual([2, 3]);
    expect(order.push(2, frame(2))).toEqual([]);
  });

  it('gives a lost frame up as silence once the window is full; it is dropped if it comes late', () => {
    const order = new FrameOrder();
    order.push(1, frame(1));
    const held = Array.from({ length: REORDER_WINDOW - 1 }, (_, i) => i + 3);
    for (const n of held) expect(order.push(n, frame(n))).toEqual([]);
    const out = order.push(REORDER_WINDOW + 2, frame(REORDER_WINDOW + 2));
    // Frame 2 became 20 ms of μ-law silence, in its place.
    expect(numbers(out)).toEqual([0xff, ...held, REORDER_WINDOW + 2]);
    expect(out[0]).toEqual(Buffer.alloc(160, 0xff));
    expect(order.push(2, frame(2))).toEqual([]);
  });

  it('follows a jump in the numbering without filling it', () => {
    const order = new FrameOrder();
    order.push(1, frame(1));
    const out = Array.from({ length: REORDER_WINDOW }, (_, i) => 1000 + i).flatMap((n) =>
      order.push(n, frame(n % 256)),
    );
    expect(out).toHaveLength(REORDER_WINDOW);
  });
});
