import type { AddressInfo } from 'node:net';
import { type Browser, chromium } from 'playwright-core';
import { createApiKey, registerOrganization } from '../support/factories';
import { startTestApp, type TestApp } from '../support/test-app';

// Swagger UI as a person uses it: Debian's Chromium (headless, driven by playwright-core) opens
// /docs of the booted app, authorizes with an API key, and runs "Try it out" on GET /api/agents.
// scripts/test-all.sh installs the chromium package when it is missing.

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const UI_TIMEOUT_MS = 60_000;

jest.setTimeout(180_000);

describe('Swagger UI in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let key: string;

  beforeAll(async () => {
    t = await startTestApp();
    await t.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    const admin = await registerOrganization(t.http);
    key = (await createApiKey(t.http, admin.token, 'Swagger UI')).key;
    await t.http
      .post('/api/agents')
      .set('x-api-key', key)
      .send({ agent_name: 'Renewal calls' })
      .expect(201);
    // Root in CI containers: Chromium's sandbox needs user namespaces it may not have.
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await browser?.close();
    await t.close();
  });

  it('authorizes with an API key and runs GET /api/agents with "Try it out": 200', async () => {
    const page = await browser.newPage();
    page.setDefaultTimeout(UI_TIMEOUT_MS);
    await page.goto(`${base}/docs`);

    await page.locator('.swagger-ui button.authorize').first().click();
    const apiKeyAuth = page.locator('.auth-container', { hasText: 'x-api-key' });
    await apiKeyAuth.locator('input').fill(key);
    // Swagger UI names its buttons for screen readers: Authorize is "Apply credentials".
    await apiKeyAuth.getByRole('button', { name: 'Apply credentials' }).click();
    await apiKeyAuth.getByRole('button', { name: 'Remove authorization' }).waitFor();
    await page.locator('.dialog-ux .btn-done').first().click();

    const operation = page.locator('.opblock.opblock-get', {
      has: page.locator('.opblock-summary-path[data-path="/api/agents"]'),
    });
    await operation.locator('.opblock-summary').first().click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await operation.getByRole('button', { name: 'Execute' }).click();

    const live = operation.locator('.live-responses-table .response');
    await live.locator('.response-col_status').first().waitFor();
    expect((await live.locator('.response-col_status').first().innerText()).trim()).toBe('200');
    expect(await live.locator('.response-col_description').first().innerText()).toContain(
      'Renewal calls',
    );
    // The request the UI sent carried the key from the Authorize dialog.
    expect(await operation.locator('.curl-command').innerText()).toContain(`x-api-key: ${key}`);
  });
});
