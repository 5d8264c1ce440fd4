import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { quickStart } from '../../examples/rest-client/quick-start';
import { PlivoFake } from '../fakes';
import { createApiKey, registerOrganization } from '../support/factories';
import { nanp } from '../support/provider-cases';
import { type ListeningTestApp, startListeningTestApp } from '../support/test-app';

/**
 * The copy-paste examples of docs/: a block under `<!-- file: path -->` must be that file,
 * word for word (the file is compiled, linted and run by the tests), and a block under
 * `<!-- run: bash -->` is run as it is against the booted service.
 */
const ROOT = join(__dirname, '..', '..');
const DOCS = join(ROOT, 'docs');

interface Block {
  doc: string;
  marker: string;
  code: string;
}

async function blocks(kind: 'file' | 'run'): Promise<Block[]> {
  const found: Block[] = [];
  for (const name of (await readdir(DOCS)).filter((file) => file.endsWith('.md'))) {
    const text = await readFile(join(DOCS, name), 'utf8');
    const pattern = new RegExp(
      `<!-- ${kind}: (\\S+) -->\\n\\n\`\`\`\\w+\\n([\\s\\S]*?)\`\`\`\\n`,
      'g',
    );
    for (const [, marker, code] of text.matchAll(pattern)) found.push({ doc: name, marker, code });
  }
  return found;
}

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
