import { checkDescribed, checkExtensions } from '../../src/spec/index.ts';
import {
  CONTROL_SPEC_PATH,
  SERVICE_SPEC_PATH,
  loadSpecFile,
} from '../../src/spec/load-spec-file.ts';
import type { Command } from '../commands.ts';
import { parseFlags } from '../options.ts';

export const lintSpecCommand: Command = {
  name: 'lint-spec',
  async run(argv) {
    const { values, positionals } = parse(argv);
    if (values.help) {
      console.log(
        'Usage: videotask lint-spec [FILE...]\n\nValidates each OpenAPI file ' +
          '(default: the service spec and the mock control spec).',
      );
      return 0;
    }
    const files = positionals.length > 0 ? positionals : [SERVICE_SPEC_PATH, CONTROL_SPEC_PATH];
    let failed = 0;
    for (const file of files) {
      try {
        const doc = await loadSpecFile(file);
        checkExtensions(doc);
        checkDescribed(doc);
        console.log(`ok ${file}`);
      } catch (error) {
        failed++;
        console.error(`invalid ${file}: ${(error as Error).message}`);
      }
    }
    return failed === 0 ? 0 : 1;
  },
};

function parse(argv: readonly string[]) {
  return parseFlags(argv, {}, true);
}
