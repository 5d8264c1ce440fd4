import { Keypad, KEYPAD_PAUSE_MS } from './keypad';

describe('Keypad', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('gives the keys pressed as one entry once the caller pauses', () => {
    const entered: string[] = [];
    const keypad = new Keypad((keys) => entered.push(keys));
    keypad.press('1');
    jest.advanceTimersByTime(KEYPAD_PAUSE_MS - 1);
    keypad.press('2');
    jest.advanceTimersByTime(KEYPAD_PAUSE_MS - 1);
    expect(entered).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(entered).toEqual(['12']);
    keypad.press('3');
    jest.advanceTimersByTime(KEYPAD_PAUSE_MS);
    expect(entered).toEqual(['12', '3']);
  });

  it('gives the entry at once on #', () => {
    const entered: string[] = [];
    const keypad = new Keypad((keys) => entered.push(keys));
    keypad.press('4');
    keypad.press('#');
    expect(entered).toEqual(['4#']);
    jest.advanceTimersByTime(KEYPAD_PAUSE_MS);
    expect(entered).toEqual(['4#']);
  });

  it('gives nothing once closed', () => {
    const entered: string[] = [];
    const keypad = new Keypad((keys) => entered.push(keys));
    keypad.press('9');
    keypad.close();
    jest.advanceTimersByTime(KEYPAD_PAUSE_MS);
    expect(entered).toEqual([]);
  });
});
