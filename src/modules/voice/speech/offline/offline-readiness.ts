import { access } from 'node:fs/promises';
import type { EngineReadiness } from '../speech-engines';
import { CommandError, runCommand } from './child-process';
import { espeakEngine } from './espeak-engine';
import { POCKETSPHINX_BATCH_COMMAND, POCKETSPHINX_MODEL_DIR } from './pocketsphinx-decoder';

const INSTALL_HINT = 'apt-get install pocketsphinx pocketsphinx-en-us libpocketsphinx3 espeak-ng';

/** eSpeak NG's engine starts (its library loads and finds its voices), with the package when not. */
export async function espeakReadiness(): Promise<EngineReadiness> {
  try {
    await espeakEngine();
    return { ready: true };
  } catch (error) {
    const reason = error instanceof CommandError ? error.message : 'eSpeak NG did not start';
    return { ready: false, reason: `${reason} (Debian package espeak-ng; ${INSTALL_HINT})` };
  }
}

/** pocketsphinx_batch runs and the US English model is where Debian puts it. */
export async function pocketsphinxReadiness(): Promise<EngineReadiness> {
  if (!(await isInstalled(POCKETSPHINX_BATCH_COMMAND, ['-h']))) {
    return {
      ready: false,
      reason: `pocketsphinx_batch is missing (Debian package pocketsphinx; ${INSTALL_HINT})`,
    };
  }
  try {
    await access(`${POCKETSPHINX_MODEL_DIR}/en-us/mdef`);
    await access(`${POCKETSPHINX_MODEL_DIR}/en-us.lm.bin`);
    await access(`${POCKETSPHINX_MODEL_DIR}/cmudict-en-us.dict`);
  } catch {
    return {
      ready: false,
      reason: `the PocketSphinx US English model is missing (Debian package pocketsphinx-en-us; ${INSTALL_HINT})`,
    };
  }
  return { ready: true };
}

/** Whether `command` is on this machine (pocketsphinx_batch -h exits non-zero even so). */
async function isInstalled(command: string, args: string[]): Promise<boolean> {
  try {
    await runCommand(command, args, AbortSignal.timeout(10_000));
    return true;
  } catch (error) {
    if (error instanceof CommandError) return !error.missing;
    throw error;
  }
}
