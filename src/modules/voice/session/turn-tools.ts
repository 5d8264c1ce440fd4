import { keypadKeys } from '../audio/dtmf';
import type { TransferMode } from '../../agents/dto/write-agent.dto';
import type { ChatTool, ChatToolCall } from '../../llm/chat-model';
import { type DigitEntry, MAX_ENTRY_DIGITS } from './digit-entry';

/** The tools a voice agent may call during a turn; the session carries them out. */
export enum TurnTool {
  EndCall = 'end_call',
  TransferCall = 'transfer_call',
  RecordOptOut = 'record_opt_out',
  PressKeys = 'press_keys',
  CollectDigits = 'collect_digits',
}

const reasonOnly = (description: string): Record<string, unknown> => ({
  type: 'object',
  properties: { reason: { type: 'string', description } },
  required: ['reason'],
  additionalProperties: false,
});

const TOOLS: Record<Exclude<TurnTool, TurnTool.TransferCall>, ChatTool> = {
  [TurnTool.CollectDigits]: {
    type: 'function',
    function: {
      name: TurnTool.CollectDigits,
      description:
        'Have the caller type a number on their keypad (an account number, a PIN, a date of ' +
        'birth) and get it exactly, rather than hearing it spoken. Say what to type in the same ' +
        'reply, e.g. "Please type your 8-digit account number, then press the pound key." The ' +
        'keys are gathered until the caller presses #, types max_digits, or pauses; their entry ' +
        'then comes to you as a caller turn.',
      parameters: {
        type: 'object',
        properties: {
          name: {
            type: 'string',
            description: 'What the digits are, in snake_case, e.g. account_number.',
          },
          max_digits: {
            type: 'integer',
            minimum: 1,
            maximum: MAX_ENTRY_DIGITS,
            description: 'How many digits the entry has at most.',
          },
          min_digits: {
            type: 'integer',
            minimum: 1,
            maximum: MAX_ENTRY_DIGITS,
            description: 'How many it has at least (default: max_digits).',
          },
        },
        required: ['name', 'max_digits'],
        additionalProperties: false,
      },
    },
  },
  [TurnTool.EndCall]: {
    type: 'function',
    function: {
      name: TurnTool.EndCall,
      description:
        'Hang up. Call it after your goodbye, once the conversation is over: the purpose is ' +
        'reached, the callee wants to stop, or it is the wrong person. Whatever you say in the ' +
        'same reply is spoken before the line closes.',
      parameters: reasonOnly('Why the call ends, in a few words.'),
    },
  },
  [TurnTool.RecordOptOut]: {
    type: 'function',
    function: {
      name: TurnTool.RecordOptOut,
      description:
        'Put the number on the do-not-call list. Use it as soon as the callee asks not to be ' +
        'called again (e.g. "stop calling me", "take me off your list"), then confirm briefly, ' +
        'say goodbye and end the call.',
      parameters: reasonOnly("The callee's request, in a few words."),
    },
  },
  [TurnTool.PressKeys]: {
    type: 'function',
    function: {
      name: TurnTool.PressKeys,
      description:
        'Press keys on the phone keypad (DTMF tones), e.g. to choose an option of an automated ' +
        'menu ("press 1 for sales") or to dial an extension. The keys sound after whatever you ' +
        'say in the same reply.',
      parameters: {
        type: 'object',
        properties: {
          keys: { type: 'string', description: 'The keys to press in order: 0-9, * and #.' },
        },
        required: ['keys'],
        additionalProperties: false,
      },
    },
  },
};

const TRANSFER_DESCRIPTION =
  'Transfer the callee to a human colleague. Use it only when the callee asks for a person or ' +
  'needs help you cannot give; tell them first that you are transferring them.';
const TRANSFER_REASON = 'Why the callee needs a person, in a few words.';

/** transfer_call: cold, a reason; warm, also the brief the colleague hears before taking the call. */
function transferTool(mode: TransferMode): ChatTool {
  const parameters =
    mode === 'cold'
      ? reasonOnly(TRANSFER_REASON)
      : {
          type: 'object',
          properties: {
            reason: { type: 'string', description: TRANSFER_REASON },
            summary: {
              type: 'string',
              description:
                'The brief your colleague hears before taking the call, in two or three short ' +
                'spoken sentences: who the callee is, what they need, what you already did.',
            },
          },
          required: ['reason', 'summary'],
          additionalProperties: false,
        };
  const description =
    mode === 'cold'
      ? TRANSFER_DESCRIPTION
      : `${TRANSFER_DESCRIPTION} Your colleague hears your summary first; if they cannot take ` +
        'the call, the callee comes back to you.';
  return {
    type: 'function',
    function: { name: TurnTool.TransferCall, description, parameters },
  };
}

/**
 * end_call, record_opt_out, press_keys and collect_digits always; transfer_call only when there
 * is a number to transfer to (`transfer`: how).
 */
export function turnTools(transfer: TransferMode | null): ChatTool[] {
  return [
    TOOLS[TurnTool.EndCall],
    ...(transfer ? [transferTool(transfer)] : []),
    TOOLS[TurnTool.RecordOptOut],
    TOOLS[TurnTool.PressKeys],
    TOOLS[TurnTool.CollectDigits],
  ];
}

/** A tool call's arguments, or none when the model's JSON is unreadable or not an object. */
function toolArguments(call: ChatToolCall): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(call.function.arguments);
    return parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A text argument of a tool call, trimmed and at most `max` characters; null when none. */
function toolText(call: ChatToolCall, name: string, max: number): string | null {
  const value = toolArguments(call)[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, max) : null;
}

/** The `reason` the model gave a tool call, when it is readable (at most 500 characters). */
export const toolReason = (call: ChatToolCall): string | null => toolText(call, 'reason', 500);

/** The `summary` a warm transfer_call gave its colleague, when readable (at most 500 characters). */
export const toolSummary = (call: ChatToolCall): string | null => toolText(call, 'summary', 500);

/** The keypad keys a press_keys call asks for ('' when none is readable). */
export function toolKeys(call: ChatToolCall): string {
  const { keys } = toolArguments(call);
  return typeof keys === 'string' ? keypadKeys(keys).slice(0, 32) : '';
}

/** The entry a collect_digits call asks for; null when unreadable (no name, no digit count). */
export function toolDigitEntry(call: ChatToolCall): DigitEntry | null {
  const args = toolArguments(call);
  const count = (value: unknown) =>
    Number.isInteger(value) ? Math.min(Math.max(value as number, 1), MAX_ENTRY_DIGITS) : null;
  const name = toolText(call, 'name', 64);
  const maxDigits = count(args.max_digits);
  if (name === null || maxDigits === null) return null;
  return { name, maxDigits, minDigits: Math.min(count(args.min_digits) ?? maxDigits, maxDigits) };
}
