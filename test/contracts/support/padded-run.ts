// Runs the contract suite in-process (virtual time: the same requests on any machine) against the
// mock with every JSON answer padded to SIZE bytes, and prints what the run held and cost:
// `{"requests":N,"heapMb":H,"maxRssMb":M}` — H the most heap still in use after a full garbage
// collection, sampled at each progress line (what the run keeps), M the process's peak. A process of its
// own, so both are the run's alone. Usage: node --expose-gc --import tsx padded-run.ts SIZE
import { runContract } from '../../../contracts/index.ts';
import type { Defect } from '../../../mocks/defects/defect.ts';
import { createMockService } from '../../../mocks/index.ts';
import { coreFetch } from './core-fetch.ts';
import { BASE_TARGET, FULL_MOCK, FULL_TARGET } from './in-process.ts';
import { VirtualClock } from './virtual-clock.ts';

const size = Number(process.argv[2] ?? 0);
const padding = 'x'.repeat(size);

/** Pads every JSON object answered to `size` bytes with a `padding` field (issue 24 item 6). */
const PADDED: Defect = {
  name: 'padded-answers',
  description: `pads every JSON answer to ${size} bytes`,
  breaks: [],
  after: (_request, response) => {
    const text = typeof response.body === 'string' ? response.body : undefined;
    if (text === undefined || !text.startsWith('{')) return response;
    const fill = padding.slice(0, Math.max(0, size - text.length - 14));
    const { 'content-length': _length, ...headers } = response.headers;
    return { ...response, headers, body: `{"padding":"${fill}",${text.slice(1)}` };
  },
};

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');
let heap = 0;
const service = createMockService({
  clock: { mode: 'manual', start: Date.UTC(2026, 10, 22) },
  seed: 'self-proof',
  ...FULL_MOCK,
  defects: [PADDED],
});
const clock = new VirtualClock(service.clock);
const report = await runContract(
  { ...BASE_TARGET, ...FULL_TARGET },
  {
    fetch: clock.track(coreFetch(service)),
    clock,
    onProgress: () => {
      gc();
      heap = Math.max(heap, process.memoryUsage().heapUsed);
    },
  },
);
const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
const maxRssMb = mb(process.resourceUsage().maxRSS * 1024);
console.log(
  JSON.stringify({ requests: report.requests, heapMb: mb(heap), maxRssMb, ok: report.ok }),
);
