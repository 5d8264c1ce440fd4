import { readFileSync } from 'node:fs';
import { canonicalLanguageTag } from '../common/language-tag';
import { ConfigError } from './config.error';

const VARIABLE = 'VOICE_CATALOGUE';

/**
 * The video generation modes a voice may serve. `audio`: the agent is heard only, spoken by a
 * text-to-speech engine of contract §8 (the voices a voice agent's `voice` names). `video`: a
 * talking avatar, which needs word timing with the audio to move its lips in sync, so only
 * engines that return it qualify (ElevenLabs alignment, eSpeak NG events; not OpenAI speech).
 */
export const VOICE_MODES = ['audio', 'video'] as const;
export type VoiceMode = (typeof VOICE_MODES)[number];

/** One voice of the catalogue: the seed's voice fields plus the modes it serves. */
export interface CatalogueVoice {
  /** What the engine is given (`voice` of an agent, `voiceId` of a video agent); unique. */
  id: string;
  name: string;
  /** BCP 47, canonical form. */
  language: string;
  gender: string;
  /** The engine that speaks it: a TTS_PROVIDER name (offline, openai, elevenlabs) or another. */
  provider: string;
  modes: VoiceMode[];
}

const voice = (
  provider: string,
  id: string,
  name: string,
  language: string,
  gender: string,
  modes: VoiceMode[],
): CatalogueVoice => ({ id, name, language, gender, provider, modes });

const offline = (id: string, name: string, language: string, gender: string) =>
  voice('offline', id, name, language, gender, ['audio', 'video']);
const openai = (id: string, name: string, language: string, gender: string) =>
  voice('openai', id, name, language, gender, ['audio']);
const elevenlabs = (id: string, name: string, gender: string) =>
  voice('elevenlabs', id, name, 'en-US', gender, ['audio', 'video']);

/**
 * The voices of the engines Switchboard speaks through (contract §8): eSpeak NG (offline; a
 * `+f3` variant is its female voice), the six voices every OpenAI-compatible speech server
 * knows, and ElevenLabs premade voices. VOICE_CATALOGUE replaces the whole list.
 */
export const DEFAULT_VOICE_CATALOGUE: readonly CatalogueVoice[] = [
  offline('en-us', 'eSpeak English (America)', 'en-US', 'male'),
  offline('en-us+f3', 'eSpeak English (America), female', 'en-US', 'female'),
  offline('en-gb', 'eSpeak English (Great Britain)', 'en-GB', 'male'),
  offline('es', 'eSpeak Spanish (Spain)', 'es-ES', 'male'),
  offline('fr-fr', 'eSpeak French (France)', 'fr-FR', 'male'),
  offline('de', 'eSpeak German', 'de-DE', 'male'),
  openai('alloy', 'Alloy', 'en-US', 'neutral'),
  openai('echo', 'Echo', 'en-US', 'male'),
  openai('fable', 'Fable', 'en-GB', 'male'),
  openai('onyx', 'Onyx', 'en-US', 'male'),
  openai('nova', 'Nova', 'en-US', 'female'),
  openai('shimmer', 'Shimmer', 'en-US', 'female'),
  elevenlabs('21m00Tcm4TlvDq8ikWAM', 'Rachel', 'female'),
  elevenlabs('EXAVITQu4vr4xnSDxMaL', 'Sarah', 'female'),
  elevenlabs('pNInz6obpgDQGcFmaJgB', 'Adam', 'male'),
  elevenlabs('ErXwobaYiN019PkySvjV', 'Antoni', 'male'),
];

/** Longest text of a voice field; the id also fits an agent's `voice` (200). */
const MAX_FIELD_LENGTH = 200;
const MAX_VOICES = 10_000;
const TEXT_FIELDS = ['id', 'name', 'gender', 'provider'] as const;
const FIELDS = new Set<string>([...TEXT_FIELDS, 'language', 'modes']);

/**
 * Reads the catalogue VOICE_CATALOGUE points to (a JSON file), or the default when it is unset.
 * Any problem stops the start with a ConfigError naming the variable (never the file's path).
 */
export function loadVoiceCatalogue(path: string | undefined): readonly CatalogueVoice[] {
  if (path === undefined) return DEFAULT_VOICE_CATALOGUE;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new ConfigError(VARIABLE, 'must name a readable JSON file');
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ConfigError(VARIABLE, 'must name a file holding valid JSON');
  }
  return parseVoiceCatalogue(json);
}

/**
 * Validates a catalogue: a non-empty JSON array of { id, name, language, gender, provider,
 * modes }, every text non-blank (≤ 200 characters), language a BCP 47 tag (stored canonical),
 * modes a non-empty subset of VOICE_MODES, ids unique, no other field.
 */
export function parseVoiceCatalogue(json: unknown): CatalogueVoice[] {
  if (!Array.isArray(json) || json.length === 0 || json.length > MAX_VOICES) {
    throw new ConfigError(
      VARIABLE,
      `must hold a JSON array of 1 to ${MAX_VOICES} voices { id, name, language, gender, provider, modes }`,
    );
  }
  const seen = new Set<string>();
  return json.map((entry: unknown, index) => {
    const voice = parseVoice(entry, index);
    if (seen.has(voice.id)) throw invalid(index, `repeats the id of an earlier voice`);
    seen.add(voice.id);
    return voice;
  });
}

function parseVoice(entry: unknown, index: number): CatalogueVoice {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    throw invalid(index, 'must be an object');
  }
  const record = entry as Record<string, unknown>;
  const unknownField = Object.keys(record).find((key) => !FIELDS.has(key));
  if (unknownField !== undefined) throw invalid(index, `has an unknown field ${unknownField}`);
  for (const field of [...TEXT_FIELDS, 'language']) {
    const value = record[field];
    if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_FIELD_LENGTH) {
      throw invalid(index, `${field} must be a non-blank string of at most ${MAX_FIELD_LENGTH}`);
    }
  }
  const language = canonicalLanguageTag(record.language as string);
  if (language === undefined) throw invalid(index, 'language must be a BCP 47 tag such as en-US');
  const modes = record.modes;
  if (
    !Array.isArray(modes) ||
    modes.length === 0 ||
    !modes.every((mode) => (VOICE_MODES as readonly unknown[]).includes(mode)) ||
    new Set(modes).size !== modes.length
  ) {
    throw invalid(index, `modes must be a non-empty list of ${VOICE_MODES.join(', ')}`);
  }
  return {
    id: record.id as string,
    name: record.name as string,
    language,
    gender: record.gender as string,
    provider: record.provider as string,
    modes: modes as VoiceMode[],
  };
}

const invalid = (index: number, reason: string) =>
  new ConfigError(VARIABLE, `voice ${index}: ${reason}`);
