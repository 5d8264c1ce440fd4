import { Logger } from '@nestjs/common';
import { startProviderFakes } from '../test/fakes/sandbox';
import { loadConfig } from '../src/config';
import { createApp } from '../src/create-app';
import { ShutdownOnSignals } from '../src/shutdown';

/**
 * Switchboard on its embedded defaults next to fake Plivo, Twilio and Telnyx servers, so the
 * phone-number flows can be tried without provider accounts. Prints ready-to-send add-phone bodies.
 */
async function main(): Promise<void> {
  const fakes = await startProviderFakes();
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
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
