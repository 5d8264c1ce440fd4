import { spawnSync } from 'node:child_process';
import { HEAP_GROWTH_FLAG } from './heap-growth';

describe('HEAP_GROWTH_FLAG', () => {
  // setFlagsFromString ignores a flag V8 does not know; the command line refuses it.
  it('is a flag this Node accepts', () => {
    const run = spawnSync(process.execPath, [HEAP_GROWTH_FLAG, '-e', ''], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('is refused when misspelled, so the check above can fail', () => {
    const run = spawnSync(process.execPath, ['--heap-growing-percentage=100', '-e', ''], {
      encoding: 'utf8',
    });
    expect(run.status).not.toBe(0);
  });
});
