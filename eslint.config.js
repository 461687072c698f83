// Lint rules that catch real bugs in this code base (decisions/008-formatter-and-linter.md).
// Formatting is Prettier's job; nothing here argues about layout.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Prettier wraps code at 100 columns but leaves long strings and comments alone; no line may pass 120
// (issue 16). ESLint 10 deprecates core `max-len`, so this small local rule does the one job needed.
const MAX_LINE = 120;
const lineLength = {
  meta: { type: 'layout', docs: { description: `no line longer than ${MAX_LINE} characters` } },
  create(context) {
    return {
      Program() {
        context.sourceCode.lines.forEach((text, index) => {
          if (text.length <= MAX_LINE) return;
          context.report({
            loc: { line: index + 1, column: MAX_LINE },
            message: `This line is ${text.length} characters long; wrap it to ${MAX_LINE} or fewer.`,
          });
        });
      },
    };
  },
};

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'coverage/',
      'reports/',
      'src/generated/',
      'bench/peers/',
      'bench/results/',
      // A consumer project's files, checked by its own tools against the installed package (test/package).
      'test/package/consumer/',
    ],
  },
  { plugins: { videotask: { rules: { 'max-line': lineLength } } } },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // An AbortSignal's reason is `any` by type; passing it on is right.
      '@typescript-eslint/prefer-promise-reject-errors': [
        'error',
        { allowThrowingAny: true, allowThrowingUnknown: true },
      ],
      // Stripping control characters from server-supplied text is deliberate.
      'no-control-regex': 'off',
      'videotask/max-line': 'error',
    },
  },
  {
    // The sample video is bytes written as text.
    files: ['mocks/media/sample-video.ts'],
    rules: { 'videotask/max-line': 'off' },
  },
  {
    // A function stays short (issue 23): at most 5 parameters (more become an options object), at most
    // 60 lines, complexity at most 15. Data tables (object/array literals: check tables, route tables,
    // the generated files) are exempt: data is not a function. A "function" that only returns a literal
    // (a table builder) is the one accepted exemption, written as
    // `// eslint-disable-next-line max-lines-per-function -- a data table`; nothing else.
    files: ['**/*.ts'],
    ignores: ['test/**'],
    rules: {
      'max-params': ['error', 5],
      'max-lines-per-function': [
        'error',
        { max: 60, skipBlankLines: true, skipComments: true, IIFEs: true },
      ],
      complexity: ['error', 15],
    },
  },
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    // Not in tsconfig.json (no allowJs): lint these without type information. Keep the
    // preset's parserOptions, which a bare `languageOptions` here would otherwise replace.
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly' },
    },
  },
);
