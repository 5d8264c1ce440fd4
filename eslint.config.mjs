import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.data/**', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      eqeqeq: ['error', 'always'],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/no-extraneous-class': 'off',
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through AppConfig.' },
      ],
    },
  },
  {
    files: [
      'src/config/**',
      'src/main.ts',
      'src/worker.ts',
      // OTEL_* belong to the OpenTelemetry SDK, which reads them before AppConfig exists.
      'src/tracing/register-*.ts',
      'examples/*/src/main.ts',
      'src/cli/switchboard.ts',
      'test/**',
      'scripts/**',
      'bench/**',
      'drizzle.config.ts',
    ],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    // A promise nobody awaits goes through detach() (src/common/detach.ts), never a bare `void`.
    files: ['src/**/*.ts', 'libs/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: { '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: false }] },
  },
  {
    files: ['test/**', '**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  prettier,
);
