// Runs the contract suite in-process (virtual time: the same requests on any machine) against the
// mock with every JSON answer padded to `size` bytes, then prints what the run cost:
// `{"requests":N,"maxRssMb":M}`. A process of its own, so its peak memory is the run's alone.
// Usage: tsx test/contracts/support/padded-run.ts SIZE
import { FULL_MOCK, FULL_TARGET, checkInProcess } from './in-process.ts';
import type { Defect } from '../../../mocks/defects/defect.ts';

const size = Number(process.argv[2] ?? 0);
const padding = 'x'.repeat(size);

/** Pads every JSON object answered to `size` bytes with a `padding` field (issue 24 item 6). */
const PADDED: Defect = {
  name: 'padded-answers',
  description: `pads every JSON answer to ${size} bytes`,
  breaks: [],
  after: (_request, response) => {
    const body = response.body;
    const text = typeof body === 'string' ? body : undefined;
    if (text === undefined || !text.startsWith('{')) return response;
    const fill = padding.slice(0, Math.max(0, size - text.length - 14));
    const { 'content-length': _length, ...headers } = response.headers;
    return { ...response, headers, body: `{"padding":"${fill}",${text.slice(1)}` };
  },
};

const { report } = await checkInProcess(
  { ...FULL_MOCK, defects: [PADDED] },
  FULL_TARGET,
);
const maxRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
console.log(JSON.stringify({ requests: report.requests, maxRssMb, ok: report.ok }));
