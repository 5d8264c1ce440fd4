import { Transform } from 'node:stream';
import { Presets, SingleBar } from 'cli-progress';

const MB = 1024 * 1024;
const megabytes = (bytes: number) => (bytes / MB).toFixed(1);

/**
 * The progress of an import, by bytes of the file read: a bar on a terminal, a plain line at
 * every tenth otherwise (logs and CI), always on stderr so stdout stays the command's output.
 */
export class ImportProgress {
  private readonly bar: SingleBar | undefined;
  private read = 0;
  private lastTenth = -1;

  constructor(
    private readonly totalBytes: number,
    private readonly out: NodeJS.WriteStream = process.stderr,
  ) {
    if (out.isTTY) {
      this.bar = new SingleBar(
        {
          stream: out,
          format: 'importing {bar} {percentage}% | {readMb} of {totalMb} MB',
          hideCursor: true,
        },
        Presets.shades_classic,
      );
      this.bar.start(totalBytes, 0, { readMb: megabytes(0), totalMb: megabytes(totalBytes) });
    }
  }

  /** Passes the file through, counting what the importer takes. */
  counter(): Transform {
    return new Transform({
      transform: (chunk: Buffer, _encoding, done) => {
        this.advance(chunk.length);
        done(null, chunk);
      },
    });
  }

  stop(): void {
    this.bar?.stop();
  }

  private advance(bytes: number): void {
    this.read += bytes;
    if (this.bar) {
      this.bar.update(this.read, { readMb: megabytes(this.read) });
      return;
    }
    const tenth = this.totalBytes === 0 ? 10 : Math.floor((this.read * 10) / this.totalBytes);
    if (tenth === this.lastTenth) return;
    this.lastTenth = tenth;
    this.out.write(
      `importing: ${tenth * 10}% (${megabytes(this.read)} of ${megabytes(this.totalBytes)} MB)\n`,
    );
  }
}
