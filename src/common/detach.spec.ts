import { detach } from './detach';

class LeakyError extends Error {
  override name = 'LeakyError';
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('detach', () => {
  const setup = () => {
    const logged: string[] = [];
    const failures: unknown[] = [];
    const logger = { warn: (message: string) => logged.push(message) };
    return { logged, failures, logger, onFailure: (error: unknown) => failures.push(error) };
  };

  it('logs a rejection by class and place, never its message, and hands it to onFailure', async () => {
    const { logged, failures, logger, onFailure } = setup();
    const error = new LeakyError('password=hunter2');
    detach(Promise.reject(error), { what: 'Sending the notice', logger, onFailure });
    await settle();
    expect(logged).toEqual([
      expect.stringMatching(
        /^Sending the notice failed: \{"error":"LeakyError","at":".*detach\.spec\.ts:\d+:\d+"\}$/,
      ),
    ]);
    expect(logged[0]).not.toContain('hunter2');
    expect(failures).toEqual([error]);
  });

  it('treats a synchronous throw of the work it starts as a failure', async () => {
    const { logged, failures, logger, onFailure } = setup();
    const error = new LeakyError('thrown before any promise');
    detach(
      () => {
        throw error;
      },
      { what: 'Starting', logger, onFailure },
    );
    await settle();
    expect(logged).toEqual([expect.stringMatching(/^Starting failed: \{"error":"LeakyError"/)]);
    expect(failures).toEqual([error]);
  });

  it('says nothing when the work succeeds', async () => {
    const { logged, failures, logger, onFailure } = setup();
    detach(() => Promise.resolve('done'), { what: 'Work', logger, onFailure });
    detach(Promise.resolve(1), { what: 'Work', logger });
    await settle();
    expect(logged).toEqual([]);
    expect(failures).toEqual([]);
  });

  it('logs a failure of onFailure itself instead of throwing it', async () => {
    const { logged, logger } = setup();
    detach(Promise.reject(new Error('first')), {
      what: 'Work',
      logger,
      onFailure: () => {
        throw new TypeError('the handler broke');
      },
    });
    detach(Promise.reject(new Error('second')), { what: 'Other work', logger });
    await settle();
    expect(logged).toEqual([
      expect.stringMatching(/^Work failed: \{"error":"Error"/),
      expect.stringMatching(/^Work: its failure handler failed: \{"error":"TypeError"/),
      expect.stringMatching(/^Other work failed: \{"error":"Error"/),
    ]);
  });
});
