/**
 * What answers an outbound call says first, for the offline recogniser's first-turn language
 * model: how people pick up, and the standard wording of voicemail greetings, carriers' prompts
 * (full or unset mailboxes, unavailable subscribers), phone menus and call-screening assistants.
 * Written from those services' usual wording, not from the labelled test set; expanded from the
 * templates below with common first names.
 */
const NAMES = [
  'james john robert michael william david richard joseph thomas charles chris daniel',
  'matthew anthony mark paul steven andrew kevin brian george ed ryan jason eric jacob nick',
  'sam ben tom mike dave jake peter mary patricia jennifer linda elizabeth barbara susan',
  'jessica sarah karen lisa nancy betty sandra ashley emily donna michelle carol amanda',
  'melissa deborah laura rebecca sharon kate anna emma julia lucy maria rose jo alex smith',
  'johnson williams brown jones garcia miller davis rodriguez martinez hernandez lopez',
  'gonzalez wilson anderson taylor moore jackson martin lee thompson white harris clark',
  'lewis walker patel nguyen kim chen',
]
  .join(' ')
  .split(' ');

const PEOPLE = [
  'hello',
  'hello hello',
  'hi',
  'hey',
  'yes',
  'yeah',
  'yep',
  'yes hello',
  'hello yes',
  'hello who is this',
  'who is this',
  "who's this",
  'hello who is calling',
  'who is calling please',
  'yes who is it',
  'good morning',
  'good afternoon',
  'good evening',
  'hello good morning',
  'hi there',
  'hello there',
  'hey there',
  'speaking',
  'this is she',
  'this is he',
  'yes speaking',
  'can i help you',
  'how can i help you',
  'what do you want',
  'yeah what is it',
  'hello can you hear me',
  'sorry who is this',
  "i'm sorry i can't hear you",
  'hello is anyone there',
  'hi how are you',
  "yes what's up",
  'hello {name} speaking',
  'hi this is {name}',
  'hello this is {name}',
  '{name} speaking',
  'hi {name} here',
  'hey it is {name}',
  "yeah it's {name}",
  'this is {name}',
  'hello {name} here how can i help',
  'yes this is {name}',
  "i'm busy right now",
  'not interested',
  'sure go ahead',
  'okay',
  'uh huh',
  'yes please',
  'no',
  'what',
  'sorry',
  'thank you',
];

const VOICEMAILS = [
  "hi you've reached {name} please leave a message",
  "hi this is {name} i can't take your call right now please leave a message",
  "hey it's {name} leave a message and i'll call you back",
  "you've reached {name} i'm not available right now leave your name and number after the beep",
  "hi you've reached the voicemail of {name} i'm away from the phone",
  'you have reached the voice mail of {name}',
  'you have reached the mailbox of {name}',
  "hello you've reached {name} and {name} we can't come to the phone right now",
  'hi this is {name} sorry i missed your call',
  "this is {name} i'm not here right now please leave a message and i'll get back to you",
  "hi it's {name} leave me a message",
  'this is {name} please leave your name number and a brief message',
  'you have reached {name} at {number} please leave a message',
  'you have reached {number}',
  'please leave a message after the tone',
  'please leave a message after the beep',
  'leave a message after the beep',
  'leave your message after the tone',
  'at the tone please record your message',
  'when you have finished recording you may hang up',
  'or press one for more options',
  'your call has been forwarded to an automatic voice message system',
  'is not available',
  'the person you are calling is not available',
  'the person you have called is not available',
  'the wireless customer you are calling is not available',
  'the number you have dialed is not available',
  'the party you are trying to reach is unavailable',
  'nobody is available to take your call',
  'no one is available to take your call right now',
  "we're sorry we can't answer the phone right now",
  "i can't come to the phone right now",
  "i'm unable to answer your call",
  "i'm away from my desk",
  "i'm out of the office",
  'please leave your name and phone number',
  'leave your name and number and i will return your call',
  'and we will call you back as soon as possible',
  "and i'll get back to you as soon as i can",
  'i will return your call as soon as possible',
  'thank you for calling',
  'thanks for calling',
  'please call back later',
  'please try again later',
  'record your message',
  'goodbye',
];

const MAILBOX_PROBLEMS = [
  'the mailbox is full',
  'the mailbox is full and cannot accept any new messages',
  'the mailbox is full and can not accept messages at this time',
  'the voice mailbox of the person you are calling is full',
  'the voicemail box you have reached is full',
  "i'm sorry the mailbox you are trying to reach is full",
  "sorry the person you are calling has a voice mailbox that hasn't been set up yet",
  'the mailbox has not been set up',
  'this mailbox has not been set up',
  'the voice mail box has not been set up yet',
  'the subscriber cannot accept messages at this time',
  'cannot accept any messages at this time',
  'is unable to receive messages',
  'the memory is full',
  'please try your call again later goodbye',
];

const MENUS = [
  'thank you for calling {name}',
  'thank you for calling our office',
  'welcome to {name}',
  'your call is important to us',
  'please listen carefully as our menu options have changed',
  'please listen to the following options',
  'for sales press one',
  'for customer service press two',
  'for billing press three',
  'for technical support press four',
  'for store hours and locations press five',
  'to speak to a representative press zero',
  'to speak with an operator press zero',
  'for all other questions press six',
  'to repeat these options press star',
  'to return to the main menu press pound',
  'main menu',
  'please enter your account number followed by the pound sign',
  'please enter your extension',
  'if you know your party extension you may dial it at any time',
  'for a company directory press eight',
  'to dial by name press nine',
  'for english press one',
  'para espanol',
  'say or press one',
  'you can say sales support or billing',
  'please say the reason for your call',
  'please hold while we connect you',
  'all of our representatives are busy',
  'your call may be recorded for quality purposes',
  'our office hours are monday through friday nine to five',
  'if this is an emergency please hang up and dial nine one one',
  'for appointments press one',
  'for prescriptions press two',
  'to check your balance press one',
  'to report a lost or stolen card press two',
];

const SCREENERS = [
  "hi the person you're calling is using a screening service",
  'the person you are calling is using a call screening service from google',
  'and will get a copy of this conversation',
  'go ahead and say your name and why you are calling',
  'please state your name and the reason for your call',
  'please say your name and the reason for your call',
  'please state your name after the tone',
  'who is calling and what is this about',
  'hi if you record your name and reason for calling i will see if this person is available',
  'this call is being screened',
  'this number uses call screening',
  'this is an automated assistant',
  'please stay on the line',
  'this is a virtual assistant please tell me who you are and why you are calling',
  'before i connect you please say your name',
  'please state your name and i will try to connect you',
  'what are you calling about',
  'may i ask who is calling',
];

const NUMBERS = [
  'five five five one two three four',
  'two one two five five five zero one nine nine',
];

const NAMES_PER_TEMPLATE = 3;
let nextName = 0;

function expand(template: string): string[] {
  if (template.includes('{number}'))
    return NUMBERS.flatMap((number) => expand(template.replace('{number}', number)));
  if (!template.includes('{name}')) return [template];
  // A few names per template, different ones each time: names enough to know them, not so many
  // that a greeting's other words sound like one.
  const names = Array.from(
    { length: NAMES_PER_TEMPLATE },
    () => NAMES[(nextName += 1) % NAMES.length],
  );
  return names.map((name) => template.replaceAll('{name}', name));
}

export const FIRST_TURN_PHRASES: readonly string[] = [
  ...PEOPLE,
  ...VOICEMAILS,
  ...MAILBOX_PROBLEMS,
  ...MENUS,
  ...SCREENERS,
].flatMap(expand);
