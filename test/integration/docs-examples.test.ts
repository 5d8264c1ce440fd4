import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { quickStart } from '../../examples/rest-client/quick-start';
import { PlivoFake } from '../fakes';
import { docBlocks, ROOT } from '../support/doc-blocks';
import { createApiKey, registerOrganization } from '../support/factories';
import { nanp } from '../support/provider-cases';
import { type ListeningTestApp, startListeningTestApp } from '../support/test-app';

/**
 * The copy-paste examples of docs/ (see DocBlock): file blocks must be their files word for word
 * (the files are compiled, linted and run by the tests); rest-client.md's run block runs here,
 * operator.md's in docs-operator.test.ts.
 */
const blocks = async (kind: 'file' | 'run') =>
  (await docBlocks()).filter((block) => block.kind === kind);

describe('docs examples', () => {
  it('include their example files exactly', async () => {
    const included = await blocks('file');
    expect(included.map(({ marker }) => marker)).toEqual(
      expect.arrayContaining([
        'examples/rest-client/quick-start.ts',
        'examples/webhook-consumer/src/create-app.ts',
        'examples/webhook-consumer/src/events.controller.ts',
      ]),
    );
    for (const { doc, marker, code } of included) {
      expect({ doc, marker, code }).toEqual({
        doc,
        marker,
        code: await readFile(join(ROOT, marker), 'utf8'),
      });
    }
  });

  describe('against the service', () => {
    let plivo: PlivoFake;
    let t: ListeningTestApp;
    let baseUrl: string;
    let workDir: string;

    beforeAll(async () => {
      plivo = await PlivoFake.start();
      t = await startListeningTestApp({ env: { PROVIDER_ONE_API_URL: plivo.baseUrl } });
      baseUrl = t.baseUrl;
      workDir = await mkdtemp(join(tmpdir(), 'sb-docs-'));
    });
    afterAll(async () => {
      await t?.close();
      await plivo?.close();
      if (workDir) await rm(workDir, { recursive: true, force: true });
    });

    it('runs the curl walk-through of rest-client.md', async () => {
      const [script] = (await blocks('run')).filter(({ doc }) => doc === 'rest-client.md');
      const account = plivo.addAccount();
      const callerId = nanp('628');
      plivo.addNumber(account, callerId);
      const { stdout } = await promisify(execFile)(
        'bash',
        ['-c', `set -euo pipefail\n${script.code}`],
        {
          cwd: workDir,
          env: {
            PATH: process.env.PATH,
            SWITCHBOARD: baseUrl,
            CALLER_ID: callerId,
            PLIVO_AUTH_ID: account.authId,
            PLIVO_AUTH_TOKEN: account.authToken,
          },
        },
      );
      expect(stdout.trim()).toBe('Spring renewals: active, 2 call records');
      const csv = await readFile(join(workDir, 'batch.csv'), 'utf8');
      const [header, ...rows] = csv.trimEnd().split('\r\n');
      expect(header).toMatch(/^_id,phoneNumber,/);
      expect(rows.map((row) => row.split(',')[1]).sort()).toEqual([
        "'+14155550101",
        "'+14155550102",
      ]);
    });

    it('runs the typed client quick start of rest-client.md', async () => {
      const admin = await registerOrganization(t.http);
      const { key: apiKey } = await createApiKey(t.http, admin.token);
      const account = plivo.addAccount();
      const callerId = nanp('628');
      plivo.addNumber(account, callerId);
      const phone = await t.http
        .post('/api/call/add-phone')
        .set('x-api-key', apiKey)
        .send({
          userId: admin.userId,
          phoneNumber: callerId,
          integration: 'provider_one',
          accSId: account.authId,
          authToken: account.authToken,
        })
        .expect(201);
      const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
      try {
        const result = await quickStart(baseUrl, apiKey, phone.body.data._id as string);
        expect(result.agent.agent_name).toBe('Renewals');
        expect(result.details).toMatchObject({ batchId: result.batchId, total: 2 });
        expect(result.csv?.trimEnd().split('\r\n')).toHaveLength(3);
        expect(log).toHaveBeenCalledWith(`batch ${result.batchId}: 2 contacts imported`);
        expect(log).toHaveBeenCalledWith('Spring renewals is active, 2 call records');
      } finally {
        log.mockRestore();
      }
    });
  });
});
