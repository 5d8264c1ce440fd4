export { DeepgramFake, type DeepgramStream } from './deepgram.fake';
export { ElevenLabsFake, type ElevenLabsStream } from './elevenlabs.fake';
export {
  OpenAiSpeechFake,
  type SpeechRequest,
  type TranscriptionRequest,
} from './openai-speech.fake';
