import { PocketsphinxDecoder } from './pocketsphinx-decoder';

/**
 * Long-lived decoders of one kind, started as calls need them, up to `max`: a turn gets an idle
 * one, else a new one while under the limit, else the least loaded. A dead one is replaced.
 */
export class DecoderPool {
  private readonly decoders: Array<Promise<PocketsphinxDecoder>> = [];
  /** Bumped by close: a decoder asked for before it is not kept after it. */
  private generation = 0;

  constructor(
    private readonly max: number,
    private readonly start: () => Promise<PocketsphinxDecoder>,
  ) {}

  get started(): boolean {
    return this.decoders.length > 0;
  }

  async decoder(): Promise<PocketsphinxDecoder> {
    const generation = this.generation;
    const settled = await Promise.all(
      this.decoders.map(async (starting) => ({
        starting,
        decoder: await starting.catch(() => undefined),
      })),
    );
    const alive: PocketsphinxDecoder[] = [];
    for (const { starting, decoder } of settled) {
      if (decoder?.alive) alive.push(decoder);
      else forget(this.decoders, starting); // it died: a new one takes its place
    }
    const idle = alive.find((decoder) => decoder.load === 0);
    if (idle) return idle;
    if (generation !== this.generation) throw new Error('the recogniser was closed');
    if (alive.length === 0 || this.decoders.length < this.max) {
      const starting = this.start();
      this.decoders.push(starting);
      return starting;
    }
    return alive.reduce((least, decoder) => (decoder.load < least.load ? decoder : least));
  }

  /** Stops every decoder; later turns start new ones. */
  async close(): Promise<void> {
    this.generation += 1;
    const decoders = this.decoders.splice(0);
    await Promise.all(decoders.map((d) => d.then((decoder) => decoder.close()).catch(() => {})));
  }
}

function forget<T>(list: T[], item: T): void {
  const at = list.indexOf(item);
  if (at !== -1) list.splice(at, 1);
}
