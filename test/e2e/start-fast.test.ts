import { spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

// `npm start` and `npm run cli` build only when the sources changed (scripts/build-stamp.js).
// On a throw-away checkout whose "build" only counts its runs, then on this repository, which
// `npm test` has just built.

const ROOT = resolve(__dirname, '../..');
const SCRIPT = join(ROOT, 'scripts/build-stamp.js');
const FAKE_BUILD =
  "node -e \"const fs=require('fs');fs.mkdirSync('dist/bundle',{recursive:true});" +
  "fs.writeFileSync('dist/bundle/main.js','');fs.appendFileSync('builds.log','b')\"";

function stamp(root: string, command: 'ensure' | 'check') {
  const result = spawnSync(
    process.execPath,
    [SCRIPT, command, '--root', root, '--build', FAKE_BUILD],
    {
      encoding: 'utf8',
    },
  );
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('start builds only when the sources changed', () => {
  let root: string;
  const builds = () => readFileSync(join(root, 'builds.log'), 'utf8').length;
  const write = (file: string, text: string) => {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'switchboard-stamp-'));
    write('builds.log', '');
    write('src/main.ts', 'export const a = 1;\n');
    write('libs/contracts/src/index.ts', 'export {};\n');
    write('package.json', '{}\n');
    write('package-lock.json', '{}\n');
    write('tsconfig.json', '{}\n');
    write('scripts/bundle.js', '\n');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('builds the first time, then not again until a source changes', () => {
    expect(stamp(root, 'check').code).toBe(1);
    expect(stamp(root, 'ensure')).toMatchObject({ code: 0, stdout: '' });
    expect(builds()).toBe(1);
    expect(stamp(root, 'check').code).toBe(0);

    const again = stamp(root, 'ensure');
    expect(again.stderr).toContain('Build up to date');
    expect(builds()).toBe(1);

    // A new modification time alone (a checkout, `touch`) is no change.
    utimesSync(join(root, 'src/main.ts'), new Date(), new Date(Date.now() + 60_000));
    stamp(root, 'ensure');
    expect(builds()).toBe(1);

    write('src/main.ts', 'export const a = 2;\n');
    stamp(root, 'ensure');
    expect(builds()).toBe(2);

    write('src/new-file.ts', 'export {};\n');
    stamp(root, 'ensure');
    expect(builds()).toBe(3);

    write('package-lock.json', '{"lockfileVersion":3}\n');
    stamp(root, 'ensure');
    expect(builds()).toBe(4);
  });

  it('builds again when the output is gone, whatever the stamp says', () => {
    stamp(root, 'ensure');
    unlinkSync(join(root, 'dist/bundle/main.js'));
    stamp(root, 'ensure');
    expect(builds()).toBe(2);
  });

  it('passes a failed build on as a failure and stamps nothing', () => {
    const failing = spawnSync(
      process.execPath,
      [SCRIPT, 'ensure', '--root', root, '--build', 'node -e "process.exit(3)"'],
      { encoding: 'utf8' },
    );
    expect(failing.status).toBe(1);
    expect(stamp(root, 'check').code).toBe(1);
  });

  it('finds this repository up to date after `npm run build` (which writes the stamp)', () => {
    const result = spawnSync(process.execPath, [SCRIPT, 'check'], { cwd: ROOT });
    expect(result.status).toBe(0);
  });
});
