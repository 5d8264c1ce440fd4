import { EventEmitter } from 'node:events';
import { installProcessPolicy, processFaults } from './process-policy';

class SecretError extends Error {
  override name = 'SecretError';
}

describe('installProcessPolicy', () => {
  const setup = () => {
    const target = new EventEmitter();
    const logged: string[] = [];
    const stop = jest.fn<void, [string]>();
    const uninstall = installProcessPolicy(
      { logger: { error: (message) => logged.push(message) }, stop },
      target as unknown as NodeJS.Process,
    );
    return { target, logged, stop, uninstall };
  };

  it('logs an unhandled rejection once, by class and place only, counts it and survives', () => {
    const { target, logged, stop, uninstall } = setup();
    const before = processFaults().unhandledRejections;
    target.emit('unhandledRejection', new SecretError('password=hunter2'), Promise.resolve());
    target.emit('unhandledRejection', 'token sk-live-123', Promise.resolve());

    expect(processFaults().unhandledRejections).toBe(before + 2);
    expect(logged).toHaveLength(2);
    expect(logged[0]).toMatch(
      /^Unhandled promise rejection \(survived\): \{"error":"SecretError","at":".*process-policy\.spec\.ts:\d+:\d+"\}$/,
    );
    expect(logged[1]).toBe('Unhandled promise rejection (survived): {"error":"string"}');
    expect(logged.join('\n')).not.toMatch(/hunter2|sk-live/);
    expect(stop).not.toHaveBeenCalled();
    uninstall();
  });

  it('logs and counts an uncaught exception, then stops the process through one call', () => {
    const { target, logged, stop, uninstall } = setup();
    const before = processFaults().uncaughtExceptions;
    target.emit('uncaughtException', new SecretError('api key abc'), 'uncaughtException');

    expect(processFaults().uncaughtExceptions).toBe(before + 1);
    expect(logged).toEqual([
      expect.stringMatching(/^Uncaught exception, stopping: \{"error":"SecretError","at":"/),
    ]);
    expect(logged[0]).not.toContain('abc');
    expect(stop).toHaveBeenCalledTimes(1);
    expect(stop).toHaveBeenCalledWith('Uncaught exception');
    uninstall();
  });

  it('removes both listeners when uninstalled', () => {
    const { target, uninstall } = setup();
    expect(target.listenerCount('unhandledRejection')).toBe(1);
    expect(target.listenerCount('uncaughtException')).toBe(1);
    uninstall();
    expect(target.listenerCount('unhandledRejection')).toBe(0);
    expect(target.listenerCount('uncaughtException')).toBe(0);
  });
});
