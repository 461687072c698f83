import type { Exchange } from '../http-recorder.ts';
import type { CheckDefinition, Evidence, Verdicts } from '../verdicts.ts';

/**
 * §2.2 and §2.3 type `created_at`, `completed_at`, `data.created_at` and `data.updated_at` as "Unix
 * timestamp": whole seconds since 1970. A timestamp in the wrong unit is the break worth catching (a
 * JavaScript back end's `Date.now()` is milliseconds), so each is read against the time of the answer
 * that carries it, its `Date` header (RFC 9110 §6.6.1: a server with a clock sends one), else the time
 * the suite sent the request: within ten years either way it is Unix seconds. The window is that wide on
 * purpose. The suite created the task minutes ago, but a server's clock may be off, its front may set
 * `Date` from another clock, and a simulated deployment (the mock at `--speed 100`, a manual clock a
 * test moved by days) runs ahead of real time: none comes near ten years. A value in milliseconds lands
 * about 55,000 years away, microseconds and nanoseconds further, and a count of seconds from anything
 * but 1970 (or 0) about fifty years back.
 */

const YEAR_S = 365.25 * 86_400;
const WINDOW_S = 10 * YEAR_S;

/** The answer's time in Unix seconds: its `Date`, else when the suite sent the request. */
function answerTime(exchange: Exchange): { seconds: number; from: string } {
  const date = Date.parse(exchange.headers['date'] ?? '');
  if (!Number.isNaN(date))
    return { seconds: date / 1000, from: `its Date ${exchange.headers['date']}` };
  const sent = new Date(exchange.startedAt).toISOString();
  return { seconds: exchange.startedAt / 1000, from: `the request sent at ${sent} (no Date)` };
}

/** What a value is likelier to be, by the unit that puts it near the answer. */
function unitHint(value: number, at: number): string {
  const units: [number, string][] = [
    [1e3, 'milliseconds'],
    [1e6, 'microseconds'],
    [1e9, 'nanoseconds'],
  ];
  const likely = units.find(([per]) => Math.abs(value / per - at) <= WINDOW_S);
  return likely === undefined ? '' : `: ${likely[1]}, not seconds`;
}

/**
 * Judges the timestamps `fields` of one answer (a field absent or not a number is the presence and
 * shape checks' business): one observation per answer, in the evidence's cell.
 */
export function judgeTimestamps(
  verdicts: Verdicts,
  check: CheckDefinition,
  exchange: Exchange,
  fields: Readonly<Record<string, unknown>>,
  ev: Evidence,
): void {
  const at = answerTime(exchange);
  const wrong = Object.entries(fields).flatMap(([name, value]) =>
    typeof value === 'number' && Number.isFinite(value) && Math.abs(value - at.seconds) > WINDOW_S
      ? [
          `${name} ${value} read as Unix seconds is the year ${Math.round(1970 + value / YEAR_S)}, ` +
            `not within ten years of the answer (${at.from})${unitHint(value, at.seconds)}`,
        ]
      : [],
  );
  verdicts.expect(check, wrong.length === 0, wrong.join('; '), ev);
}
