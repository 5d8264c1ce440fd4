import { readFileSync } from 'node:fs';
import { createConsumerApp } from './create-app';

/**
 * SWITCHBOARD_WEBHOOK_SECRETS: the webhook's whsec_… secret; during a rotation the new and the old
 * one, separated by spaces. PORT (default 4000). TLS_CERT_FILE and TLS_KEY_FILE to serve HTTPS.
 */
async function main(): Promise<void> {
  const secrets = (process.env.SWITCHBOARD_WEBHOOK_SECRETS ?? '').split(/[\s,]+/).filter(Boolean);
  const { TLS_CERT_FILE, TLS_KEY_FILE } = process.env;
  const app = await createConsumerApp({
    webhooks: { secrets },
    httpsOptions:
      TLS_CERT_FILE && TLS_KEY_FILE
        ? { cert: readFileSync(TLS_CERT_FILE), key: readFileSync(TLS_KEY_FILE) }
        : undefined,
  });
  app.enableShutdownHooks();
  await app.listen(Number(process.env.PORT ?? 4000), process.env.HOST ?? '0.0.0.0');
  console.log(`Webhook consumer listening on ${await app.getUrl()}/switchboard/events`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
