import type { MessagingConversationRow } from './messaging-conversations.schema';

/** The platform takes free text only within 24 hours of the customer's latest message. */
export const CUSTOMER_WINDOW_MS = 24 * 3600 * 1000;

export function isWindowOpen(
  conversation: Pick<MessagingConversationRow, 'lastCustomerMessageAt'>,
  now: Date,
): boolean {
  return now.getTime() - conversation.lastCustomerMessageAt.getTime() < CUSTOMER_WINDOW_MS;
}

/** The log entry of free text we did not send because the window had closed. */
export const OUTSIDE_WINDOW = {
  code: 'outside_window',
  message:
    'More than 24 hours since the customer last wrote: the platform takes only a template ' +
    '(POST /api/messaging/conversations/{id}/template)',
};
