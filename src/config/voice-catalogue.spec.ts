import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  DEFAULT_VOICE_CATALOGUE,
  loadVoiceCatalogue,
  parseVoiceCatalogue,
  VOICE_MODES,
} from './voice-catalogue';

const voice = {
  id: 'af_bella',
  name: 'Bella',
  language: 'en-US',
  gender: 'female',
  provider: 'openai',
  modes: ['audio'],
};

describe('parseVoiceCatalogue', () => {
  it('accepts the default catalogue as it is, and it serves every mode', () => {
    expect(parseVoiceCatalogue(JSON.parse(JSON.stringify(DEFAULT_VOICE_CATALOGUE)))).toEqual(
      DEFAULT_VOICE_CATALOGUE,
    );
    for (const mode of VOICE_MODES) {
      expect(DEFAULT_VOICE_CATALOGUE.some((v) => v.modes.includes(mode))).toBe(true);
    }
  });

  it('keeps the voices in order and stores the language tag in canonical form', () => {
    const catalogue = parseVoiceCatalogue([
      { ...voice, language: 'EN-gb' },
      { ...voice, id: 'am_adam', modes: ['video', 'audio'] },
    ]);
    expect(catalogue).toEqual([
      { ...voice, language: 'en-GB' },
      { ...voice, id: 'am_adam', modes: ['video', 'audio'] },
    ]);
  });

  it.each([
    ['an object', { voices: [voice] }, /must hold a JSON array/],
    ['an empty list', [], /must hold a JSON array/],
    ['a voice that is no object', [voice, 'alloy'], /voice 1: must be an object/],
    ['an unknown field', [{ ...voice, accent: 'US' }], /voice 0: has an unknown field accent/],
    ['a missing field', [{ ...voice, gender: undefined }], /voice 0: gender must be a non-blank/],
    ['a blank id', [{ ...voice, id: '  ' }], /voice 0: id must be a non-blank/],
    ['an over-long name', [{ ...voice, name: 'n'.repeat(201) }], /voice 0: name must be/],
    ['a number as provider', [{ ...voice, provider: 7 }], /voice 0: provider must be/],
    ['a malformed language', [{ ...voice, language: 'english!' }], /voice 0: language must be/],
    ['an unknown mode', [{ ...voice, modes: ['audio', 'hologram'] }], /voice 0: modes must be/],
    ['no mode', [{ ...voice, modes: [] }], /voice 0: modes must be/],
    ['a repeated mode', [{ ...voice, modes: ['audio', 'audio'] }], /voice 0: modes must be/],
    ['a repeated id', [voice, { ...voice, name: 'Other' }], /voice 1: repeats the id/],
  ])('refuses %s, naming VOICE_CATALOGUE', (_case, json, reason) => {
    expect(() => parseVoiceCatalogue(json)).toThrow(/^Invalid configuration: VOICE_CATALOGUE /);
    expect(() => parseVoiceCatalogue(json)).toThrow(reason);
  });
});

describe('loadVoiceCatalogue', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'sb-voices-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('uses the default catalogue when VOICE_CATALOGUE is unset', () => {
    expect(loadVoiceCatalogue(undefined)).toBe(DEFAULT_VOICE_CATALOGUE);
  });

  it('reads and validates the JSON file it names', () => {
    const path = join(dir, 'voices.json');
    writeFileSync(path, JSON.stringify([voice]));
    expect(loadVoiceCatalogue(path)).toEqual([voice]);
  });

  it('refuses a missing file or invalid JSON without echoing the path', () => {
    const missing = join(dir, 'missing.json');
    expect(() => loadVoiceCatalogue(missing)).toThrow(
      'Invalid configuration: VOICE_CATALOGUE must name a readable JSON file',
    );
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '[{"id":');
    expect(() => loadVoiceCatalogue(broken)).toThrow(
      'Invalid configuration: VOICE_CATALOGUE must name a file holding valid JSON',
    );
  });
});
