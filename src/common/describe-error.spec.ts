import { describeUnknown } from './describe-error';

describe('describeUnknown', () => {
  it('follows the cause chain to the driver error and its SQLSTATE, never quoting a message', () => {
    const driver = Object.assign(new Error('canceling statement due to statement timeout'), {
      code: '57014',
    });
    const wrapper = new Error('Failed query: insert into "secret_table" values ($1)', {
      cause: driver,
    });
    wrapper.name = 'DrizzleQueryError';

    const described = describeUnknown(wrapper);

    expect(described).toMatchObject({
      error: 'DrizzleQueryError',
      cause: { error: 'Error', code: '57014' },
    });
    expect(JSON.stringify(described)).not.toMatch(/secret|insert|canceling/);
  });

  it('stops after a few causes when they form a cycle', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    Object.assign(a, { cause: b });

    const described = describeUnknown(a);

    expect(described.cause?.cause?.cause).toBeDefined();
    expect(described.cause?.cause?.cause?.cause).toBeUndefined();
  });

  it('names the built-in an error came out of and the first frame with a source location', () => {
    let thrown: unknown;
    try {
      // A built-in (no location of its own) throwing on our behalf.
      JSON.parse('{');
    } catch (error) {
      thrown = error;
    }
    const described = describeUnknown(thrown);
    expect(described).toMatchObject({ error: 'SyntaxError', via: 'JSON.parse' });
    expect(described.at).toMatch(/describe-error\.spec\.ts:\d+:\d+$/);
    // A frame of our own on top: no `via`.
    expect(describeUnknown(new Error('x')).via).toBeUndefined();
  });
});
