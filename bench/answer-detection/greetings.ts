import type { AnswerOutcome } from '@app/contracts';

/**
 * The labelled set of answers (issue #29): what a person, a voicemail, a full mailbox, a menu, a
 * call-screening assistant or a fax machine says or sounds like in the first seconds of a call.
 * make-fixtures.ts speaks each with an offline voice into test/fixtures/answers; the bench and
 * the regression test read them back.
 */
export interface LabelledAnswer {
  name: string;
  outcome: AnswerOutcome;
  /** What is said (empty for a fax). */
  text: string;
  /** The eSpeak NG voice. */
  voice: string;
  /** A voicemail greeting ends in its beep (1 kHz, 400 ms). */
  beep?: boolean;
  /** A fax machine's answer: its CED tone, then V.21 flags. */
  fax?: boolean;
}

const VOICES = ['en-us', 'en-us+f3', 'en-gb', 'en-us+m3', 'en-gb-x-rp+f2', 'en-029'];
const voice = (i: number) => VOICES[i % VOICES.length];

const PEOPLE = [
  'Hello?',
  'Hi.',
  'Hello, this is Sam.',
  'Yeah?',
  "Hello, who's this?",
  'Hi, Mark speaking.',
  'Good morning.',
  'Hey.',
  'Yes, hello?',
  'Speaking.',
  'Hello there.',
  'Hi, this is Jo.',
];

const VOICEMAILS_WITH_BEEP = [
  "Hi, you've reached Sam. I can't come to the phone right now. Please leave a message after the tone.",
  'You have reached the voicemail of Maria Lopez. Please leave your name and number and I will call you back.',
  "Hey, it's Jake. Leave me a message and I'll get back to you.",
  'The person you are trying to reach is not available. At the tone, please record your message.',
  'Hello, this is Doctor Patel. I am away from my desk. Please leave a brief message.',
  "Thanks for calling. We're not available right now. Leave a message after the beep.",
  'Hi, this is Anna. Sorry I missed your call, I will get back to you as soon as I can.',
  'You have reached five five five, one two three four. Please leave a message.',
];

const VOICEMAILS_WITHOUT_BEEP = [
  "Hi, you've reached Tom's voicemail. Please leave a message.",
  'The subscriber you have called is not available. Please leave a message after the tone.',
  "This is Karen. I can't take your call right now, please call back later.",
  'You have reached the voice mail box of Peter. Leave a message and I will call you back.',
  'Hello. Nobody is available to take your call. Please leave a message.',
  "Hi, it's Lucy, I'm not available, leave a message.",
];

const FULL_MAILBOXES = [
  'The mailbox is full and cannot accept any new messages. Goodbye.',
  'Sorry, the voice mailbox you are trying to reach is full. Please try again later.',
  'This mailbox has not been set up yet. Goodbye.',
  'The person you are calling cannot accept messages at this time. The mailbox is full.',
  'The voicemail box is full. You cannot leave a message.',
];

const MENUS = [
  'Thank you for calling Acme. For sales, press one. For support, press two.',
  'Please listen carefully, as our menu options have changed. For billing, press three.',
  'Welcome to City Bank. To hear your balance, press one. To speak to an agent, press zero.',
  'If you know your party extension, you may dial it at any time. For the directory, press nine.',
  'Thank you for calling. Para español, oprima el nueve. For English, press one.',
  'Main menu. Say or press one for appointments, two for prescriptions.',
];

const SCREENERS = [
  "Hi, the person you're calling is using a screening service. Please state your name and the reason for your call.",
  'Hello, this is Google Assistant. Who is calling, and what are you calling about?',
  'Before I try to connect you, please say your name after the tone.',
  'This call is being screened. Please state your name and reason for calling.',
  'Hi, I am a call assist service. Please say your name and why you are calling.',
];

export const LABELLED_ANSWERS: LabelledAnswer[] = [
  ...PEOPLE.map((text, i) => ({
    name: `human-${i + 1}`,
    outcome: 'human' as const,
    text,
    voice: voice(i),
  })),
  ...VOICEMAILS_WITH_BEEP.map((text, i) => ({
    name: `voicemail-beep-${i + 1}`,
    outcome: 'voicemail' as const,
    text,
    voice: voice(i + 1),
    beep: true,
  })),
  ...VOICEMAILS_WITHOUT_BEEP.map((text, i) => ({
    name: `voicemail-${i + 1}`,
    outcome: 'voicemail' as const,
    text,
    voice: voice(i + 2),
  })),
  ...FULL_MAILBOXES.map((text, i) => ({
    name: `mailbox-full-${i + 1}`,
    outcome: 'mailbox_full' as const,
    text,
    voice: voice(i + 3),
  })),
  ...MENUS.map((text, i) => ({
    name: `ivr-${i + 1}`,
    outcome: 'ivr' as const,
    text,
    voice: voice(i + 4),
  })),
  ...SCREENERS.map((text, i) => ({
    name: `screening-${i + 1}`,
    outcome: 'call_screening' as const,
    text,
    voice: voice(i + 5),
  })),
  ...[1, 2, 3].map((i) => ({
    name: `fax-${i}`,
    outcome: 'fax' as const,
    text: '',
    voice: '',
    fax: true,
  })),
];

/**
 * Answers written after the first-turn model and the word cues were settled, and never used to
 * tune them: the bench speaks them at run time (not committed) to show how far the rules carry
 * beyond the set they were made with.
 */
const HELD_OUT: Array<[AnswerOutcome, string, boolean?]> = [
  ['human', 'Hello, Dan speaking.'],
  ['human', 'Hey, good afternoon.'],
  ['human', 'Uh, hello?'],
  ['human', 'Hi there, this is Rachel.'],
  ['human', 'Morning!'],
  [
    'voicemail',
    "Hello, you've reached the Johnson residence. We can't come to the phone, so please leave a message.",
  ],
  [
    'voicemail',
    "Hi, this is Omar. I'm probably on the other line. Leave your number and I'll ring you back.",
  ],
  [
    'voicemail',
    "You've reached Doctor Kim's office. We are closed right now. Please leave a message after the beep.",
    true,
  ],
  [
    'voicemail',
    'The cellular customer you have called is unavailable. Please record your message at the tone.',
    true,
  ],
  ['voicemail', "Hey, it's Priya. Text me instead, or leave a voicemail."],
  ['mailbox_full', "I'm sorry, but the mailbox belonging to this number is full. Goodbye."],
  ['mailbox_full', "The user's mailbox is full. Please try your call later."],
  ['mailbox_full', 'This voice mailbox is not yet set up. Please try again later.'],
  ['mailbox_full', "Sorry, this customer's mailbox cannot take any more messages."],
  [
    'ivr',
    'Hello and welcome to Sunrise Dental. To book an appointment, press one. For billing, press two.',
  ],
  ['ivr', 'You have reached the help desk. Please enter your employee number, then press pound.'],
  [
    'ivr',
    'Thanks for calling Metro Power. For outages, press one, or stay on the line for an agent.',
  ],
  ['ivr', 'Welcome. For hours and directions, press three. To leave a message, press four.'],
  [
    'call_screening',
    'Hello, the person you are calling uses a call screening service. Say your name and the reason for calling.',
  ],
  [
    'call_screening',
    "Hi, I'm an automated assistant. Please tell me your name and the purpose of your call.",
  ],
  [
    'call_screening',
    'Please state your name after the tone, and I will see if this person is available.',
  ],
  ['call_screening', 'This is a screening assistant. Why are you calling today?'],
];

export const HELD_OUT_ANSWERS: LabelledAnswer[] = HELD_OUT.map(([outcome, text, beep], i) => ({
  name: `held-out-${i + 1}`,
  outcome,
  text,
  voice: voice(i + 3),
  ...(beep ? { beep } : {}),
}));
