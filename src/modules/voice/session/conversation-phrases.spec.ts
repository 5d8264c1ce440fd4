import { isUnfinishedUtterance } from './conversation-phrases';

describe('isUnfinishedUtterance', () => {
  it.each([
    'I was going to call and',
    'I want it but',
    'so',
    'because',
    'I would like to talk to',
    'I am calling about the',
    'can I get a',
    'it is for my',
    'well um',
    'Uh',
    'one of',
    'My number is',
    'my number is.',
    'the address was',
    'yes my email address is',
    'I think that,',
    'the thing is -',
    'the thing is...',
    'so I was…',
  ])('holds "%s"', (said) => {
    expect(isUnfinishedUtterance(said)).toBe(true);
  });

  it.each([
    '',
    'yes',
    'What are your opening hours?',
    'and then?',
    'I think so',
    'I guess so.',
    "I'd like to",
    'I really want to.',
    'Who am I speaking with',
    'what is this about',
    'where are you calling from',
    'hold on',
    'come in',
    'oh my',
    'yes it is',
    "I don't know where the office is",
    'that is fine',
    'no thank you',
  ])('lets "%s" end the turn', (said) => {
    expect(isUnfinishedUtterance(said)).toBe(false);
  });

  it('holds a phone number stopped at a group boundary of 3-3-4, not a number that is whole', () => {
    expect(isUnfinishedUtterance('my number is five five five')).toBe(true);
    expect(isUnfinishedUtterance('it is 555')).toBe(false);
    expect(isUnfinishedUtterance('call me at 555')).toBe(true);
    expect(isUnfinishedUtterance('five five five, one two three')).toBe(true);
    expect(isUnfinishedUtterance('my number is 555-123')).toBe(true);
    expect(isUnfinishedUtterance('my number is five five five one two one two')).toBe(false);
    expect(isUnfinishedUtterance('my number is 555 123 4567')).toBe(false);
    expect(isUnfinishedUtterance('I am 42')).toBe(false);
    expect(isUnfinishedUtterance('we have 300')).toBe(false);
  });
});
