import { advanceProblem, readClock, type Clock } from './clock.ts';
import type { Operation, SharedState } from './shared-state.ts';

/**
 * A service's clock: reads the shared state's clock (never past a ceiling: a real clock's durable lease,
 * decisions/012) and moves it only through the `advance` operation, so that a state file keeps it.
 */
export function serviceClock(
  shared: Readonly<SharedState>,
  ceiling: () => number | undefined,
  apply: (operation: Operation) => void,
): Clock {
  const { clock } = shared;
  const now = (): number => readClock(shared.clock, ceiling());
  return {
    mode: clock.mode,
    speed: clock.mode === 'manual' ? 1 : clock.speed,
    now,
    advance(ms) {
      const problem = advanceProblem(now(), ms);
      if (problem !== undefined) throw new RangeError(`Cannot advance the clock: ${problem}`);
      apply({ op: 'advance', ms });
    },
  };
}
