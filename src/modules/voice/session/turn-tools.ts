import { keypadKeys } from '../audio/dtmf';
import type { ChatTool, ChatToolCall } from '../../llm/chat-model';

/** The tools a voice agent may call during a turn; the session carries them out. */
export enum TurnTool {
  EndCall = 'end_call',
  TransferCall = 'transfer_call',
  RecordOptOut = 'record_opt_out',
  PressKeys = 'press_keys',
}

const reasonOnly = (description: string): Record<string, unknown> => ({
  type: 'object',
  properties: { reason: { type: 'string', description } },
  required: ['reason'],
  additionalProperties: false,
});

const TOOLS: Record<TurnTool, ChatTool> = {
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
  [TurnTool.TransferCall]: {
    type: 'function',
    function: {
      name: TurnTool.TransferCall,
      description:
        'Transfer the callee to a human colleague. Use it only when the callee asks for a ' +
        'person or needs help you cannot give; tell them first that you are transferring them.',
      parameters: reasonOnly('Why the callee needs a person, in a few words.'),
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

/** end_call, record_opt_out and press_keys always; transfer_call only when there is a number to transfer to. */
export function turnTools(canTransfer: boolean): ChatTool[] {
  return [
    TOOLS[TurnTool.EndCall],
    ...(canTransfer ? [TOOLS[TurnTool.TransferCall]] : []),
    TOOLS[TurnTool.RecordOptOut],
    TOOLS[TurnTool.PressKeys],
  ];
}

/** The `reason` the model gave a tool call, when it is readable (at most 500 characters). */
export function toolReason(call: ChatToolCall): string | null {
  try {
    const { reason } = JSON.parse(call.function.arguments) as { reason?: unknown };
    return typeof reason === 'string' && reason.trim() !== '' ? reason.trim().slice(0, 500) : null;
  } catch {
    return null;
  }
}

/** The keypad keys a press_keys call asks for ('' when none is readable). */
export function toolKeys(call: ChatToolCall): string {
  try {
    const { keys } = JSON.parse(call.function.arguments) as { keys?: unknown };
    return typeof keys === 'string' ? keypadKeys(keys).slice(0, 32) : '';
  } catch {
    return '';
  }
}
