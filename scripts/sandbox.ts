import { Logger } from '@nestjs/common';
import { applyFaultPlan, parseFaultPlan, parseModelFaults } from '../test/fakes/fault-plan';
import { startProviderFakes } from '../test/fakes/sandbox';
import { loadConfig } from '../src/config';
import { createApp } from '../src/create-app';
import { ShutdownOnSignals } from '../src/shutdown';
import { SandboxDemo } from './sandbox-demo';
import { SandboxTalk } from './sandbox-talk';

/**
 * Switchboard on its embedded defaults next to fake Plivo, Twilio, Telnyx and Graph API servers,
 * so the phone-number and messaging flows can be tried without provider accounts. Prints
 * ready-to-send add-phone and messaging-integration bodies.
 * With `--demo`: dials a demo batch end to end on a throw-away database and exits (SandboxDemo).
 * With `--talk`: one call on which the agent and a recorded caller hold a conversation, with the
 * offline speech engine for real (SandboxTalk); `--save-audio` keeps the call as a .wav.
 * `--faults=…` switches the telephony fakes' fault modes on (plain and `--demo`), and the stand-in
 * model's (`model-…`, with `--talk`).
 */
async function main(): Promise<void> {
  // `--faults=rate-limit:3:20,lose:1:call.hangup,…`: the fakes' fault modes (test/fakes/fault-plan.ts).
  const faultSpec = process.argv
    .find((arg) => arg.startsWith('--faults='))
    ?.slice('--faults='.length);
  const faults = faultSpec ? parseFaultPlan(faultSpec) : [];
  if (process.argv.includes('--talk')) {
    const saveAudio = process.argv.includes('--save-audio');
    const modelFaults = faultSpec ? parseModelFaults(faultSpec) : [];
    return runToEnd(
      new SandboxTalk({ env: process.env, print: console.log, saveAudio, modelFaults }),
    );
  }
  if (process.argv.includes('--demo')) {
    return runToEnd(
      new SandboxDemo({ env: process.env, print: (line) => console.log(line), faults }),
    );
  }
  const fakes = await startProviderFakes();
  applyFaultPlan([fakes.plivo.fake, fakes.twilio.fake, fakes.telnyx.fake], faults);
  const config = loadConfig({ ...process.env, ...fakes.env });
  const app = await createApp(config);
  await app.listen(config.http.port);
  const logger = new Logger('Sandbox');
  new ShutdownOnSignals(logger).attach({
    close: async () => {
      await app.close();
      await fakes.close();
    },
  });
  const base = `http://localhost:${config.http.port}`;
  const bodies = {
    provider_one: {
      phoneNumber: fakes.plivo.number,
      authToken: fakes.plivo.authToken,
      accSId: fakes.plivo.authId,
    },
    provider_two: {
      phoneNumber: fakes.twilio.number,
      authToken: fakes.twilio.authToken,
      accSId: fakes.twilio.accountSid,
    },
    provider_three: {
      phoneNumber: fakes.telnyx.number,
      authToken: fakes.telnyx.apiKey,
      accSId: '',
    },
  };
  console.log(`\nSwitchboard sandbox at ${base} (Swagger UI: ${base}/docs)`);
  console.log(
    `Fake providers: Plivo ${fakes.plivo.baseUrl}, Twilio ${fakes.twilio.baseUrl}, Telnyx ${fakes.telnyx.baseUrl}`,
  );
  console.log('Register, then POST /api/call/add-phone with your userId and one of:');
  for (const [integration, body] of Object.entries(bodies)) {
    console.log(`  ${JSON.stringify({ integration, ...body })}`);
  }
  const { messaging } = fakes;
  console.log(`Fake messaging platform (Graph API): ${messaging.baseUrl}`);
  console.log('Connect its business number with POST /api/messaging/messaging-integration:');
  console.log(
    `  ${JSON.stringify({
      phoneNumberId: messaging.phoneNumberId,
      accessToken: messaging.accessToken,
      businessAccountId: messaging.businessAccountId,
    })}`,
  );
  console.log('To watch a batch dial end to end instead: npm run sandbox -- --demo');
  console.log('To hear the agent hold a conversation: npm run sandbox -- --talk [--save-audio]');
  console.log('To make the fake providers fail: --faults=… (see test/fakes/fault-plan.ts)');
}

/** A demo to its end (or Ctrl-C), then everything it started is stopped and removed. */
async function runToEnd(sandbox: { run(): Promise<unknown>; close(): Promise<void> }) {
  let stopping = false;
  const stop = (code: number) => {
    if (stopping) return;
    stopping = true;
    void sandbox.close().finally(() => process.exit(code));
  };
  process.once('SIGINT', () => stop(130));
  process.once('SIGTERM', () => stop(143));
  try {
    await sandbox.run();
    stop(0);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    stop(1);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
