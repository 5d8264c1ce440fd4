// Bundles the compiled server and worker into one CommonJS file each. Loading Nest 12's ESM
// packages through require(esm) costs ~1 s per start on Node 20; one bundle halves it
// (docs/benchmarks.md, Startup).
const { build } = require('esbuild');
const { cpSync } = require('node:fs');

const external = [
  '@electric-sql/pglite', // loads its WebAssembly and extension files from its own folder
  'argon2', // native addon
  'pg-native',
  '@nestjs/microservices',
  '@nestjs/websockets',
  '@fastify/static',
  'pino-pretty',
  'class-transformer/storage',
];

async function main() {
  await build({
    entryPoints: { main: 'dist/src/main.js', worker: 'dist/src/worker.js' },
    outdir: 'dist/bundle',
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: true,
    logLevel: 'warning',
    external,
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
