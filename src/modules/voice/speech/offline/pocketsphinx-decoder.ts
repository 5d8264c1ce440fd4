import { Logger } from '@nestjs/common';
import { detach } from '../../../../common/detach';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { CommandError } from './child-process';

const LOG = new Logger('PocketsphinxDecoder');

export const POCKETSPHINX_BATCH_COMMAND = 'pocketsphinx_batch';
/** Where Debian's pocketsphinx-en-us puts the US English model (the only one packaged). */
export const POCKETSPHINX_MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';
export const POCKETSPHINX_RATE = 16000;

// A decode that has not answered by then is stuck: the process is killed and started again.
const DECODE_TIMEOUT_MS = 30_000;

// Search limits from PocketSphinx's own speed advice: measured on the voice fixtures they halve
// the CPU per utterance with the same words recognised (docs/benchmarks.md).
const SPEED_ARGS = ['-topn', '2', '-maxhmmpf', '3000', '-maxwpf', '5'];
// A call's first seconds against the small first-turn model: wider beams than the defaults, which
// told 3 more of the 45 labelled answers right for about twice the CPU of one short decode.
const WIDE_SEARCH_ARGS = ['-topn', '6', '-beam', '1e-60', '-wbeam', '1e-40', '-pbeam', '1e-60'];

interface Pending {
  id: string;
  samples: Int16Array;
  signal?: AbortSignal;
  resolve(text: string): void;
  reject(error: Error): void;
}

/**
 * One long-lived `pocketsphinx_batch`: the model is loaded once, then each utterance is a raw
 * 16 kHz file in the decoder's private directory whose name goes down a control FIFO; the
 * transcript comes back on a hypothesis FIFO as `words (id score)`. Utterances are decoded one at
 * a time, in order. (Node's child pipes are sockets, which the program cannot open by path.)
 */
export class PocketsphinxDecoder {
  private readonly queue: Pending[] = [];
  private current?: Pending;
  private timer?: NodeJS.Timeout;
  private sequence = 0;
  private failure?: Error;

  private constructor(
    private readonly dir: string,
    private readonly child: ChildProcess,
    private readonly control: Socket,
    private readonly hypotheses: Socket,
  ) {
    createInterface({ input: hypotheses }).on('line', (line) => this.onHypothesis(line));
    child.once('exit', (code, signal) =>
      this.fail(new CommandError(POCKETSPHINX_BATCH_COMMAND, `exited (${code ?? signal})`)),
    );
    // A decoder nobody closed must not keep the process alive.
    for (const handle of [child, control, hypotheses]) handle.unref();
  }

  /**
   * `languageModel`: the text of an ARPA model to decode against (searched wide), instead of the
   * packaged general one (searched fast).
   */
  static async start(options: { languageModel?: string } = {}): Promise<PocketsphinxDecoder> {
    const dir = await mkdtemp(join(tmpdir(), 'switchboard-stt-'));
    const handles: number[] = [];
    try {
      const languageModel = join(dir, 'model.lm');
      if (options.languageModel) await writeFile(languageModel, options.languageModel);
      const [controlPath, hypothesisPath] = [join(dir, 'control'), join(dir, 'hypotheses')];
      await promisify(execFile)('mkfifo', ['-m', '600', controlPath, hypothesisPath]);
      // Read-write opens of a FIFO never block on Linux, and keep it open whatever the program does.
      for (const path of [controlPath, hypothesisPath])
        handles.push(openSync(path, constants.O_RDWR));
      const child = spawn(
        POCKETSPHINX_BATCH_COMMAND,
        [
          ...['-ctl', controlPath, '-hyp', hypothesisPath],
          ...['-adcin', 'yes', '-cepdir', dir, '-cepext', '.raw'],
          ...['-samprate', String(POCKETSPHINX_RATE)],
          ...['-hmm', join(POCKETSPHINX_MODEL_DIR, 'en-us')],
          ...[
            '-lm',
            options.languageModel ? languageModel : join(POCKETSPHINX_MODEL_DIR, 'en-us.lm.bin'),
          ],
          ...['-dict', join(POCKETSPHINX_MODEL_DIR, 'cmudict-en-us.dict')],
          ...(options.languageModel ? WIDE_SEARCH_ARGS : SPEED_ARGS),
          ...['-logfn', '/dev/null'],
        ],
        { stdio: 'ignore' },
      );
      await new Promise<void>((resolve, reject) => {
        child.once('spawn', resolve);
        child.once('error', (error: NodeJS.ErrnoException) =>
          reject(
            error.code === 'ENOENT'
              ? new CommandError(POCKETSPHINX_BATCH_COMMAND, 'is not installed', true)
              : new CommandError(POCKETSPHINX_BATCH_COMMAND, `failed (${error.code})`),
          ),
        );
      });
      const control = new Socket({ fd: handles[0], readable: false, writable: true });
      const hypotheses = new Socket({ fd: handles[1], readable: true, writable: false });
      return new PocketsphinxDecoder(dir, child, control, hypotheses);
    } catch (error) {
      for (const fd of handles) closeSync(fd);
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
  }

  /** Utterances waiting or being decoded. */
  get load(): number {
    return this.queue.length + (this.current ? 1 : 0);
  }

  /** False once the process has died or was closed: start another. */
  get alive(): boolean {
    return this.failure === undefined;
  }

  /** The words in 16 kHz 16-bit mono `samples`; '' when aborted first. */
  transcribe(samples: Int16Array, signal?: AbortSignal): Promise<string> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.queue.push({ id: `utt-${(this.sequence += 1)}`, samples, signal, resolve, reject });
      this.decodeNext();
    });
  }

  async close(): Promise<void> {
    this.fail(new CommandError(POCKETSPHINX_BATCH_COMMAND, 'was closed'));
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise((resolve) => this.child.once('exit', resolve));
      this.child.ref(); // until it has gone
      this.child.kill('SIGKILL');
      await exited;
    }
    this.control.destroy();
    this.hypotheses.destroy();
    await rm(this.dir, { recursive: true, force: true });
  }

  /** Starts the next utterance waiting, if the decoder is free (its failures fail that utterance). */
  private decodeNext(): void {
    detach(() => this.next(), { what: 'PocketSphinx decoding', logger: LOG });
  }

  private async next(): Promise<void> {
    if (this.current || this.failure) return;
    const pending = this.queue.shift();
    if (!pending) return;
    if (pending.signal?.aborted) {
      pending.resolve('');
      return this.next();
    }
    this.current = pending;
    try {
      const { buffer, byteOffset, byteLength } = pending.samples;
      await writeFile(this.file(pending.id), Buffer.from(buffer, byteOffset, byteLength));
      this.timer = setTimeout(() => {
        this.fail(new CommandError(POCKETSPHINX_BATCH_COMMAND, 'timed out'));
        this.child.kill('SIGKILL');
      }, DECODE_TIMEOUT_MS);
      this.control.write(`${pending.id}\n`);
    } catch (error) {
      this.fail(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private onHypothesis(line: string): void {
    const match = /^(.*) \((\S+) -?\d+\)$/.exec(line);
    const pending = this.current;
    if (!match || !pending || match[2] !== pending.id) return;
    clearTimeout(this.timer);
    this.current = undefined;
    detach(unlink(this.file(pending.id)), { what: 'Removing an utterance file', logger: LOG });
    pending.resolve(pending.signal?.aborted ? '' : match[1].trim());
    this.decodeNext();
  }

  /** Every waiting utterance fails with `error`, and so does every later one. */
  private fail(error: Error): void {
    clearTimeout(this.timer);
    this.failure ??= error;
    const pending = [...(this.current ? [this.current] : []), ...this.queue.splice(0)];
    this.current = undefined;
    for (const utterance of pending) utterance.reject(this.failure);
  }

  private file(id: string): string {
    return join(this.dir, `${id}.raw`);
  }
}
