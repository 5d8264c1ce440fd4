import { Logger } from '@nestjs/common';
import { PeriodicTask } from './periodic-task';

describe('PeriodicTask', () => {
  afterEach(() => jest.useRealTimers());

  it('runs one pass at a time: a call during a pass gets that pass', async () => {
    let finish: (n: number) => void = () => undefined;
    const pass = jest.fn(() => new Promise<number>((resolve) => (finish = resolve)));
    const task = new PeriodicTask(pass, new Logger('test'), 'Pass');
    const first = task.run();
    const second = task.run();
    finish(7);
    await expect(Promise.all([first, second])).resolves.toEqual([7, 7]);
    expect(pass).toHaveBeenCalledTimes(1);
    void task.run();
    expect(pass).toHaveBeenCalledTimes(2);
    finish(8);
  });

  it('runs on its interval, logs a failed pass without the error escaping, and stops', async () => {
    jest.useFakeTimers();
    const logger = new Logger('test');
    const warn = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const pass = jest.fn().mockRejectedValue(new Error('database down'));
    const task = new PeriodicTask(pass, logger, 'Sweep');
    task.start(1_000);
    await jest.advanceTimersByTimeAsync(2_000);
    expect(pass).toHaveBeenCalledTimes(2);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^Sweep failed: .*"error":"Error"/));
    await task.stop();
    await jest.advanceTimersByTimeAsync(5_000);
    expect(pass).toHaveBeenCalledTimes(2);
  });
});
