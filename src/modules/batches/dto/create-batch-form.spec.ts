import { addFormField, emptyFormFields } from '../../../common/form-fields';
import { createBatchFormToBody } from './create-batch-form';

describe('createBatchFormToBody', () => {
  it('reads text numbers, booleans and JSON callingHour; leaves what does not convert for validation', () => {
    expect(
      createBatchFormToBody({
        batchName: 'Renewals',
        retry: '2',
        delay: 'soon',
        callingHour: '{"start":"09:00","end":"18:00"}',
        timezone: 'UTC',
        enforceCalleeLocalHours: 'false',
        agentId: '65f1c0ffee0123456789abcd',
        maxConcurrentCalls: '3',
        recordCalls: 'true',
        colour: 'blue',
      }),
    ).toEqual({
      batchName: 'Renewals',
      retry: 2,
      delay: 'soon',
      callingHour: { start: '09:00', end: '18:00' },
      timezone: 'UTC',
      enforceCalleeLocalHours: false,
      agentId: '65f1c0ffee0123456789abcd',
      maxConcurrentCalls: 3,
      recordCalls: true,
      colour: 'blue',
    });
    expect(createBatchFormToBody({ callingHour: '{oops', retry: '' })).toEqual({
      callingHour: '{oops',
      retry: '',
    });
  });

  it('takes list fields repeated, once, as name[] or as a JSON array text', () => {
    expect(createBatchFormToBody({ callingNumbers: ['a', 'b'], allowedDays: ['1', '5'] })).toEqual({
      callingNumbers: ['a', 'b'],
      allowedDays: [1, 5],
    });
    expect(createBatchFormToBody({ callingNumbers: 'a', allowedDays: '[2,3]' })).toEqual({
      callingNumbers: ['a'],
      allowedDays: [2, 3],
    });
    expect(createBatchFormToBody({ 'callingNumbers[]': 'a', 'allowedDays[]': ['0', '6'] })).toEqual(
      {
        callingNumbers: ['a'],
        allowedDays: [0, 6],
      },
    );
  });

  it('keeps a repeated scalar as an array, so validation refuses it', () => {
    expect(createBatchFormToBody({ batchName: ['a', 'b'] })).toEqual({ batchName: ['a', 'b'] });
  });

  it('passes a field named __proto__ or constructor on as an unknown field, never as a converter', () => {
    const fields = emptyFormFields();
    addFormField(fields, '__proto__', '');
    addFormField(fields, 'constructor', 'x');
    const body = createBatchFormToBody(fields);
    expect(Object.keys(body).sort()).toEqual(['__proto__', 'constructor']);
    expect(body.constructor).toBe('x');
  });
});
