import { BadRequestException } from '@nestjs/common';
import { parsePhoneLogFilter } from './batch-filter';

describe('parsePhoneLogFilter', () => {
  it('reads phone-log fields', () => {
    expect(parsePhoneLogFilter('{"callStatus":"completed","callDuration":30}')).toEqual({
      callStatus: 'completed',
      callDuration: 30,
    });
    expect(parsePhoneLogFilter(undefined)).toEqual({});
    expect(parsePhoneLogFilter('  ')).toEqual({});
  });

  it.each([
    '{bad',
    '[1]',
    '"text"',
    'null',
    '{"name":"x"}',
    '{"callStatus":{"$ne":1}}',
    '{"callDuration":"long"}',
  ])('refuses %s with 400', (text) => {
    expect(() => parsePhoneLogFilter(text)).toThrow(BadRequestException);
  });
});
