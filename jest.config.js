// @swc/jest in CommonJS mode; Nest 12, file-type and ogg-opus-decoder are ESM-only, so they are
// transformed too.
// Run with NODE_OPTIONS=--experimental-vm-modules (PGlite loads its extensions with dynamic import).
const transform = {
  '^.+\\.[tj]s$': [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
        target: 'es2022',
      },
      module: { type: 'commonjs' },
    },
  ],
};
const common = {
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: {
    '^@app/contracts$': '<rootDir>/libs/contracts/src',
    '^@app/contracts/(.*)$': '<rootDir>/libs/contracts/src/$1',
    '^@app/webhooks$': '<rootDir>/libs/webhooks/src',
    '^@app/webhooks/(.*)$': '<rootDir>/libs/webhooks/src/$1',
    '^@app/client$': '<rootDir>/libs/client/src',
    '^@app/client/(.*)$': '<rootDir>/libs/client/src/$1',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  transform,
  transformIgnorePatterns: [
    '/node_modules/(?!(@nestjs|@apidevtools|file-type|strtok3|token-types|@tokenizer|uint8array-extras|@borewit|ogg-opus-decoder|opus-decoder|codec-parser|@wasm-audio-decoders|simple-yenc)/)',
  ],
};
module.exports = {
  // The integration suite runs one file at a time in a worker (--maxWorkers=1, not --runInBand)
  // that is replaced once it holds this much between files: each file's app leaves some heap
  // behind, and run in band the heap reached ~1 GB by the 30th file, where GC made the
  // allocation-heavy tests 3-5x slower than alone (webhook-redis-faults 215 s against 38 s).
  workerIdleMemoryLimit: '700MB',
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/libs/**/*.spec.ts'],
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/support/integration-timeout.ts'],
    },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.test.ts'] },
    { ...common, displayName: 'fuzz', testMatch: ['<rootDir>/test/fuzz/**/*.test.ts'] },
  ],
};
