import { FrameCutter, ULAW_SILENCE } from './frame-cutter';

describe('FrameCutter', () => {
  it('cuts chunks of any length into whole frames, in order, and pads the tail with silence', () => {
    const cutter = new FrameCutter(4);
    const bytes = Buffer.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const frames = [
      ...cutter.push(bytes.subarray(0, 3)),
      ...cutter.push(bytes.subarray(3, 9)),
      ...cutter.push(bytes.subarray(9)),
    ];
    expect(frames.map((frame) => [...frame])).toEqual([
      [1, 2, 3, 4],
      [5, 6, 7, 8],
    ]);
    expect([...cutter.flush()!]).toEqual([9, 10, ULAW_SILENCE, ULAW_SILENCE]);
    expect(cutter.flush()).toBeNull();
  });

  it('does not keep a reference to the caller’s buffer', () => {
    const cutter = new FrameCutter(2);
    const chunk = Buffer.from([1, 2, 3]);
    const [frame] = cutter.push(chunk);
    chunk.fill(0);
    expect([...frame]).toEqual([1, 2]);
    expect([...cutter.flush()!]).toEqual([3, ULAW_SILENCE]);
  });
});
