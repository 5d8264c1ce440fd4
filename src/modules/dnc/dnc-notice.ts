import { maskPhoneNumber } from '../../common/phone-number';
import type { Notice } from '../notifications/notifications.service';

export interface DncAddedFacts {
  phoneNumber: string;
  batchName: string;
  type: string | null;
  addedBy: { name: string; email: string } | undefined;
  viaApiKey: boolean;
  addedAt: Date;
  withdrawnCalls: number;
}

export const DNC_ADDED_SUBJECT = 'Number added to the do-not-call list';

/** The admins' e-mail: plain text, and the number masked as in logs (mail is not a vault). */
export function dncAddedNotice(facts: DncAddedFacts): Notice {
  const who = facts.addedBy
    ? `${oneLine(facts.addedBy.name)} <${facts.addedBy.email}>`
    : 'a deleted user';
  const lines = [
    "A number was added to your organization's do-not-call list.",
    '',
    `Number:   ${maskPhoneNumber(facts.phoneNumber)}`,
    `Batch:    ${oneLine(facts.batchName)}`,
    `Type:     ${facts.type ? oneLine(facts.type) : 'not given'}`,
    `Added by: ${who}${facts.viaApiKey ? ' (through an API key)' : ''}`,
    `Added at: ${facts.addedAt.toISOString()}`,
    '',
    `Pending calls withdrawn from active or paused batches: ${facts.withdrawnCalls}.`,
    'The number will not be dialed again while it stays on the list.',
  ];
  return { subject: DNC_ADDED_SUBJECT, text: `${lines.join('\n')}\n` };
}

/** User-written values must not add lines of their own to the message. */
function oneLine(value: string): string {
  return value.replace(/\p{Cc}+/gu, ' ');
}
