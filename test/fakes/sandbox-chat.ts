import type { ChatReply, ReceivedChatRequest } from './chat.fake';

interface Message {
  role: string;
  content: string | null;
}

/** Caller turns after which the scripted agent says goodbye and ends the call. */
const TURNS_BEFORE_GOODBYE = 3;
const GOODBYE_WORDS = /\b(bye|goodbye)\b/i;

/**
 * The sandbox's stand-in for a chat model, for ChatFake.respond: no intelligence, only a script
 * that shows each path of a call. A voice turn answers from the first knowledge-base passage in
 * the prompt when it shares a word with what the caller said, else repeats what it heard; the
 * caller's goodbye (or the third turn) gets a goodbye and end_call. The post-call summary is
 * built from the quoted conversation and the analysis is valid against the schema asked for.
 */
export function sandboxChatReply(request: ReceivedChatRequest): ChatReply {
  const messages = (request.body.messages ?? []) as Message[];
  const format = request.body.response_format as { json_schema?: { schema?: unknown } } | undefined;
  if (format?.json_schema) return { kind: 'text', pieces: [JSON.stringify(analysis(format))] };
  if (request.body.tools === undefined) return { kind: 'text', pieces: [summary(messages)] };
  return voiceTurn(messages);
}

function voiceTurn(messages: Message[]): ChatReply {
  const callerTurns = messages.filter((m) => m.role === 'user').map((m) => m.content ?? '');
  const heard = callerTurns.at(-1) ?? '';
  if (GOODBYE_WORDS.test(heard) || callerTurns.length >= TURNS_BEFORE_GOODBYE) {
    return {
      kind: 'tool-calls',
      text: 'Thank you for calling. Goodbye!',
      calls: [{ name: 'end_call', arguments: { reason: 'the caller said goodbye' } }],
    };
  }
  const passage = knowledge(messages[0]?.content ?? '').find((text) => sharesWord(text, heard));
  if (passage) return { kind: 'text', pieces: ['Let me check. ', `${firstSentence(passage)}`] };
  return {
    kind: 'text',
    pieces: [`I heard: ${heard || 'nothing'}. `, 'What would you like to know?'],
  };
}

/** The passages quoted in the turn's system prompt (`<knowledge>` holds them as JSON). */
function knowledge(system: string): string[] {
  const quoted = /<knowledge>\n([\s\S]*?)\n<\/knowledge>/.exec(system)?.[1];
  if (!quoted) return [];
  return (JSON.parse(quoted) as Array<{ text: string }>).map((passage) => passage.text);
}

const words = (text: string) => new Set(text.toLowerCase().match(/[a-z]{4,}/g) ?? []);
function sharesWord(passage: string, heard: string): boolean {
  const passageWords = words(passage);
  return [...words(heard)].some((word) => passageWords.has(word));
}

const firstSentence = (text: string) => /^[^.!?]*[.!?]?/.exec(text.trim())![0];

/** Two sentences from the quoted conversation: what the callee said and how the call went. */
function summary(messages: Message[]): string {
  const quoted = messages.find((m) => m.role === 'user')?.content ?? '{}';
  const { conversation = [] } = JSON.parse(quoted) as {
    conversation?: Array<{ role: string; text: string }>;
  };
  const said = conversation.filter((turn) => turn.role === 'callee').map((turn) => turn.text);
  return (
    `The callee was reached and said: ${said.map((text) => `"${text}"`).join(', ') || 'nothing'}. ` +
    `The agent answered in ${conversation.filter((turn) => turn.role === 'agent').length} turns ` +
    'and the call ended politely.'
  );
}

/** Every field the schema asks for: the fixed judgements set, the agent's own fields null. */
function analysis(format: { json_schema?: { schema?: unknown } }) {
  const schema = format.json_schema?.schema as
    { properties?: { fields?: { properties?: Record<string, unknown> } } } | undefined;
  const fields = Object.keys(schema?.properties?.fields?.properties ?? {});
  return {
    successful: true,
    sentiment: 'positive',
    disposition: 'information_given',
    optedOut: false,
    fields: Object.fromEntries(fields.map((name) => [name, null])),
  };
}
