import type { AnswerPlan, Speech } from './answer-plan';

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';
// What XML 1.0 cannot carry (controls but tab, LF and CR; lone surrogates; U+FFFE/U+FFFF), and
// the C1 controls and DEL, which no speech engine should read out.
const NOT_XML = /(?![\t\n\r])\p{Cc}|\p{Cs}|[\uFFFE\uFFFF]/gu;

/** Text or attribute value safe inside an XML document. */
export function xmlEscape(value: string): string {
  return value
    .replace(NOT_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

const attributes = (values: Record<string, string | number | null | undefined>): string =>
  Object.entries(values)
    .filter(([, value]) => value !== null && value !== undefined && value !== '')
    .map(([name, value]) => ` ${name}="${xmlEscape(String(value))}"`)
    .join('');

const speak = (verb: 'Say' | 'Speak', speech: Speech | null): string =>
  speech
    ? `<${verb}${attributes({ language: speech.language, voice: speech.voice })}>${xmlEscape(speech.text)}</${verb}>`
    : '';

/** provider_two: TwiML. */
export function twimlAnswer(plan: AnswerPlan): string {
  const body = plan.kind === 'speak' ? speak('Say', plan.speech) : '';
  return `${XML_DECLARATION}<Response>${body}<Hangup/></Response>`;
}

/** provider_one: Plivo XML; `<Record recordSession>` records the whole call in the background. */
export function plivoAnswer(plan: AnswerPlan): string {
  let body = '';
  if (plan.kind === 'speak') {
    if (plan.record) {
      body += `<Record${attributes({
        recordSession: 'true',
        redirect: 'false',
        maxLength: plan.record.maxSeconds,
        fileFormat: 'mp3',
        callbackUrl: plan.record.callbackUrl,
        callbackMethod: 'POST',
      })}/>`;
    }
    body += speak('Speak', plan.speech);
  }
  return `${XML_DECLARATION}<Response>${body}<Hangup/></Response>`;
}

/** provider_three has no answer document: the plan becomes a Call Control `speak` (or nothing). */
export function telnyxSpeech(
  plan: AnswerPlan,
): { text: string; voice: string; language: string } | null {
  if (plan.kind !== 'speak' || !plan.speech) return null;
  // Telnyx requires a voice: `female` unless the agent names one.
  return {
    text: plan.speech.text,
    voice: plan.speech.voice ?? 'female',
    language: plan.speech.language,
  };
}
