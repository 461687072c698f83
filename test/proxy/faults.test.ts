// Issue 34 item 4: which requests get an injected fault: `--inject NAME[=RATE]` and the prompt tag.
import { describe, expect, it } from 'vitest';
import { FaultPicker, parseFaultRule, tagOf } from '../../proxy/faults.ts';

describe('--inject', () => {
  it('reads NAME (by tag only) and NAME=RATE, and says what is wrong with anything else', () => {
    expect(parseFaultRule('lost-answer')).toEqual({ fault: 'lost-answer', rate: 0 });
    expect(parseFaultRule('query-5xx=0.25')).toEqual({ fault: 'query-5xx', rate: 0.25 });
    expect(parseFaultRule('unknown=tag')).toEqual({ fault: 'unknown', rate: 0 });
    expect(parseFaultRule('meteor')).toMatch(/give NAME or NAME=RATE, NAME one of rate-limit/);
    expect(parseFaultRule('rate-limit=1.5')).toMatch(/a number from 0 to 1/);
    expect(parseFaultRule('rate-limit=')).toMatch(/a number from 0 to 1/);
  });

  it('spreads a rate evenly and reproducibly, and always honours the tag', () => {
    const picker = new FaultPicker([
      { fault: 'query-5xx', rate: 0.25 },
      { fault: 'unknown', rate: 0 },
    ]);
    const picks = Array.from({ length: 12 }, () => picker.pick('query-5xx', false));
    expect(picks.filter(Boolean)).toHaveLength(3);
    expect(picks.indexOf(true)).toBe(3);
    expect(picker.pick('unknown', false)).toBe(false);
    expect(picker.pick('unknown', true)).toBe(true);
    expect(picker.pick('rate-limit', true)).toBe(false); // not asked for: never
    expect(tagOf('content-redirect')).toBe('[proxy:content-redirect]');
  });
});
