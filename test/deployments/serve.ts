// Serves one held-out test deployment from a shell until Ctrl-C:
//   npx tsx test/deployments/serve.ts gateway --port 4020 --speed 20 --family-bound
// Prints its URL and its keys, masked: the keys themselves are DEFAULT_KEYS in support.ts.
import { parseArgs } from 'node:util';
import { DEPLOYMENT_NAMES, DEPLOYMENTS, startDeployment, type DeploymentName } from './index.ts';

const USAGE = `Usage: npx tsx test/deployments/serve.ts NAME [options]

NAME is one of: ${DEPLOYMENT_NAMES.join(', ')}.

Options:
  --port N            port on 127.0.0.1 (default 4020; 0 for any free port)
  --speed N           N times faster than the deployment's own timing (default 1; 20 ends tasks in 1–4 s)
  --family-bound      the second family's plugin bound to its channel (default: unbound, as §1 says)
  --plugin NAME       the plugin name of the native path (default alt-video)
  --departure NAME    a deliberate break of a documented rule (repeatable; the gateway has some)
  --seed N            seed the deployment's random choices
  -h, --help          show this help`;

function fail(message: string): never {
  console.error(`serve: ${message}\n\n${USAGE}`);
  process.exit(2);
}

function number(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) fail(`${flag} must be a number ≥ 0, got "${value}"`);
  return n;
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      speed: { type: 'string' },
      'family-bound': { type: 'boolean' },
      plugin: { type: 'string' },
      departure: { type: 'string', multiple: true },
      seed: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
} catch (error) {
  fail((error as Error).message);
}
const { values, positionals } = parsed;
if (values.help === true) {
  console.log(USAGE);
  process.exit(0);
}
const name = positionals[0];
if (name === undefined || !(name in DEPLOYMENTS))
  fail(`name a deployment (${DEPLOYMENT_NAMES.join(', ')})`);

try {
  const deployment = await startDeployment(name as DeploymentName, {
    port: number('--port', values.port) ?? 4020,
    speed: number('--speed', values.speed) ?? 1,
    familyBound: values['family-bound'] === true,
    ...(values.plugin === undefined ? {} : { plugin: values.plugin }),
    departures: values.departure ?? [],
    ...(values.seed === undefined ? {} : { seed: number('--seed', values.seed)! }),
  });
  console.log(`${name} listening on ${deployment.url}`);
  console.log(`  ${DEPLOYMENTS[name as DeploymentName].habits}`);
  for (const { user, key, models } of deployment.keys)
    console.log(`  key of ${user}: ${key.slice(0, 3)}…${key.slice(-4)} (${models.join(', ')})`);
  console.log('  (the keys in full: DEFAULT_KEYS in test/deployments/support.ts)');
  if (deployment.departures.length > 0)
    console.log(`  departures: ${deployment.departures.join(', ')}`);
  const stop = () => void deployment.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // The server does not hold the process open by itself (tests): this does, until a signal.
  setInterval(() => undefined, 1 << 30);
} catch (error) {
  fail((error as Error).message);
}
