import { BadRequestException } from '@nestjs/common';
import { parsePhoneLogFilter } from './batch-filter';

describe('parsePhoneLogFilter', () => {
  it('reads phone-log fields', () => {
    expect(parsePhoneLogFilter('{"callStatus":"completed","callDuration":30}')).toEqual({
      callStatus: 'completed',
      callDuration: 30,
    });
    expect(parsePhoneLogFilter('{"callDuration":2147483647}')).toEqual({
      callDuration: 2_147_483_647,
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
    '{"callDuration":2147483648}',
    '{"callDuration":9999999999999}',
    '{"callDuration":1.5}',
    '{"transcript":"a\\u0000"}',
    '{"recordingUrl":"\\ud800"}',
  ])('refuses %s with 400', (text) => {
    expect(() => parsePhoneLogFilter(text)).toThrow(BadRequestException);
  });
});
