import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { eq } from 'drizzle-orm';
import { newObjectId } from '../../src/common/object-id';
import { Database } from '../../src/database';
import { batches } from '../../src/modules/batches/batches.schema';
import { JOB_LANES } from '../../src/queue/jobs';
import { CallingFactories } from '../support/calling-factories';
import { cliCommand, cliEnv } from '../support/cli';
import { type DocBlock, docBlocks } from '../support/doc-blocks';
import { createApiKey } from '../support/factories';
import { operatorAdmin } from '../support/operator-admin';
import { type ListeningTestApp, startListeningTestApp } from '../support/test-app';

// docs/operator.md's shell blocks, run as they are (bash, set -euo pipefail) against a listening
// app on BullMQ with the queue board and /metrics on, in a scratch directory. `npm run -s cli --`
// is the CLI itself here (the built bundle when the build is current, else the sources): the
// script the page documents, without npm's start-up and its build check, which have tests of
// their own. Blocks marked skip need Docker or start a server.
jest.setTimeout(300_000);

const METRICS_TOKEN = 'docs-operator-metrics-token';
const CSV = ['phoneNumber,firstName', '+14155550101,Ada', 'not a number,Bob', '+14155550102,Cy'];

describe('docs/operator.md examples', () => {
  const operatorOrganization = newObjectId();
  let t: ListeningTestApp;
  let blocks: DocBlock[];
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let batchId: string;

  const run = async (index: number) =>
    promisify(execFile)(
      'bash',
      [
        '-c',
        [
          'set -euo pipefail',
          // Exactly the form the page uses, nothing else: another npm call is a mistake here.
          'npm() {',
          '  if [ "${1-} ${2-} ${3-} ${4-}" != "run -s cli --" ]; then echo "npm $* is not in the test" >&2; return 127; fi',
          '  shift 4; "${SWITCHBOARD_CLI[@]}" "$@"',
          '}',
          `SWITCHBOARD_CLI=(${cliCommand()
            .map((word) => `'${word}'`)
            .join(' ')})`,
          blocks[index].code,
        ].join('\n'),
      ],
      { cwd: dir, env },
    );

  beforeAll(async () => {
    blocks = (await docBlocks('operator.md')).filter(({ lang }) => lang === 'bash');
    t = await startListeningTestApp({
      redis: true,
      env: { QUEUE_BOARD_ORGANIZATIONS: operatorOrganization, METRICS_TOKEN },
    });
    const token = await operatorAdmin(t, operatorOrganization);
    const { key } = await createApiKey(t.http, token);
    const factories = new CallingFactories(t);
    const me = await t.http.get('/api/auth/me').set('x-api-key', key).expect(200);
    const userId = me.body.data._id as string;
    const phone = await factories.phone(operatorOrganization, userId);
    const batch = await factories.batch(operatorOrganization, userId, {
      callingNumbers: [phone.id],
    });
    batchId = batch.id;
    dir = await mkdtemp(join(tmpdir(), 'sb-docs-operator-'));
    await writeFile(join(dir, 'contacts.csv'), CSV.join('\n'));
    env = {
      ...cliEnv(t),
      SWITCHBOARD: t.baseUrl,
      BATCH: batchId,
      KEY: key,
      METRICS_TOKEN,
    };
  });
  afterAll(async () => {
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('marks every shell block run or skip, and runs most', () => {
    expect(blocks.filter(({ kind }) => kind !== 'run' && kind !== 'skip')).toEqual([]);
    expect(blocks.filter(({ kind }) => kind === 'skip').map(({ marker }) => marker)).toEqual([
      'starts a server',
      'needs Docker',
    ]);
    expect(blocks.filter(({ kind }) => kind === 'run').length).toBeGreaterThanOrEqual(5);
  });

  // One test, the page's order: later blocks depend on what earlier ones did (a paused batch).
  it('runs the run blocks in page order', async () => {
    const order = blocks.flatMap((block, index) => (block.kind === 'run' ? [index] : []));
    const [health, cli, exitCodes, board, metrics] = order;
    expect(order).toHaveLength(5);

    expect((await run(health)).stdout).toContain('"status":true');

    const walk = await run(cli);
    expect(walk.stdout).toContain('Usage: switchboard');
    expect(walk.stdout).toMatch(
      /^Organization [0-9a-f]{24} created with admin [0-9a-f]{24} <ada@example.com>$/m,
    );
    expect(walk.stdout).toMatch(/^API key [0-9a-f]{24} revoked$/m);
    expect(walk.stdout).toContain('Imported 2 of 3 rows; 1 rejected');
    expect(walk.stdout).toContain('row 2: invalid_number');
    expect(walk.stdout).toMatch(/^Batch [0-9a-f]{24} exported to batch.csv \(\d+ bytes\)$/m);
    const issued = JSON.parse(await readFile(join(dir, 'key.json'), 'utf8')) as { key: string };
    await t.http.get('/api/auth/me').set('x-api-key', issued.key).expect(401);
    expect((await readFile(join(dir, 'batch.csv'), 'utf8')).split('\r\n')[0]).toMatch(/^_id,/);
    const [row] = await t.app
      .get(Database)
      .db.select()
      .from(batches)
      .where(eq(batches.id, batchId));
    expect(row).toMatchObject({ queueStatus: 'paused', totalCalls: 2 });

    // The batch is paused: pausing again fails, and the script prints the error from err.json.
    expect((await run(exitCodes)).stdout).toBe('A paused batch cannot be paused\n');

    const queues = (await run(board)).stdout.trim().split('\n');
    expect(queues.sort()).toEqual(Object.keys(JOB_LANES).sort());

    expect((await run(metrics)).stdout).toMatch(/^switchboard_calls_live/m);
  });
});
