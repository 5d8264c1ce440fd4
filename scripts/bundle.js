// Bundles the compiled server, worker and operator CLI (switchboard) into one CommonJS file
// each. Loading Nest 12's ESM packages through require(esm) costs ~1 s per start on Node 20; one
// bundle halves it (docs/benchmarks.md, Startup).
const { build } = require('esbuild');
const { cpSync, readFileSync } = require('node:fs');

const external = [
  '@electric-sql/pglite', // loads its WebAssembly and extension files from its own folder
  'argon2', // native addon
  'onnxruntime-node', // native addon (voice activity detection), loads its binary by path
  'koffi', // native addon (eSpeak NG's library), resolved by path for the engine's process
  'pg-native',
  // OpenTelemetry patches these when they are required (start-tracing.ts): a bundled copy
  // would never be required, so never traced.
  'pg',
  'ioredis',
  '@nestjs/microservices',
  '@nestjs/websockets',
  '@fastify/static',
  'pino-pretty',
  'class-transformer/storage',
  // Required lazily and never by us: nest-commander's Fig completion specs (Prettier) and
  // cosmiconfig's loader of .ts config files (only for nest-commander plugins, which the CLI does
  // not use). Bundled, they were 17 of the CLI's 37 MB, parsed on every start.
  '@fig/complete-commander',
  'typescript',
];

// libphonenumber-js builds a new RegExp from a long metadata pattern on every test: about 20 per
// +1 number, half the cost of validating one (docs/benchmarks.md, contacts import). The bundle
// keeps each compiled pattern instead; without the `g` flag test() holds no state, so results are
// the same. The build fails if an upgrade changes the function, rather than patching blindly.
const MATCHES_ENTIRELY = /libphonenumber-js[\\/]build[\\/]helpers[\\/]matchesEntirely\.js$/;
const UNCACHED = "return new RegExp('^(?:' + regularExpressionText + ')$').test(text);";
const CACHED = `let pattern = compiled.get(regularExpressionText);
  if (pattern === undefined) {
    pattern = new RegExp('^(?:' + regularExpressionText + ')$');
    compiled.set(regularExpressionText, pattern);
  }
  return pattern.test(text);`;
const cachedPatterns = {
  name: 'libphonenumber-cached-patterns',
  setup(build) {
    build.onLoad({ filter: MATCHES_ENTIRELY }, ({ path }) => {
      const source = readFileSync(path, 'utf8');
      if (!source.includes(UNCACHED)) throw new Error(`${path} changed: review the bundle's patch`);
      return {
        contents: `${source.replace(UNCACHED, () => CACHED)}\nconst compiled = new Map();\n`,
        loader: 'js',
      };
    });
  },
};

async function main() {
  await build({
    entryPoints: {
      main: 'dist/src/main.js',
      worker: 'dist/src/worker.js',
      // The example webhook consumer (examples/webhook-consumer), built so CI proves it runs.
      'webhook-consumer': 'dist/examples/webhook-consumer/src/main.js',
      switchboard: 'dist/src/cli/switchboard.js',
    },
    outdir: 'dist/bundle',
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: true,
    logLevel: 'warning',
    external,
    plugins: [cachedPatterns],
    // Nest's ESM code calls createRequire(import.meta.url), which CommonJS has no value for.
    define: { 'import.meta.url': '__importMetaUrl' },
    banner: { js: 'const __importMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
  });
  cpSync('src/database/migrations', 'dist/bundle/migrations', { recursive: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
