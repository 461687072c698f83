import type { Difference } from './difference.ts';

/**
 * The differences of a drift grouped by cause (issue 35): one deployment change (error bodies turned to
 * plain text) shows as the same difference in tens of cells, and as more than one aspect in each (its
 * content type and its body). A cause is every difference that reads the same (aspect, field, A, B)
 * on the same set of places: what changed, where, and one place to look at first.
 */
export interface DriftCause {
  /** What differs, each as `content type: A text/plain · B application/json`. */
  readonly what: readonly string[];
  /** The places it touches: `getVideo · missing · owner · refused`, or a whole-run aspect. */
  readonly places: readonly string[];
  /** The routes of those places, with how many places each (`getVideo 3`). */
  readonly routes: readonly string[];
  /** The first place, with the steps that asked it. */
  readonly example: string;
  /** How many differences it is. */
  readonly differences: number;
}

export const ASPECT_LABEL: Readonly<Record<Difference['aspect'], string>> = {
  status: 'status',
  'content-type': 'content type',
  body: 'body',
  headers: 'header',
  timing: 'timing',
  observed: 'observed',
  lifecycle: 'lifecycle',
  content: 'content',
  identifiers: 'identifiers',
  verdict: 'contract verdict',
};

/** `getVideo · queued · owner · ok`. */
export const placeOf = (d: Difference): string =>
  [d.cell.split(' ').join(' · '), d.situation].filter((p) => p !== '').join(' · ');

/** `body error.code: A string · B absent`. */
export const describeDifference = (d: Difference): string =>
  `${ASPECT_LABEL[d.aspect]}${d.where === '' ? '' : ` ${d.where}`}: A ${d.a} · B ${d.b}`;

/** The differences that are not contract verdicts, by cause, the one touching most places first. */
export function driftCauses(differences: readonly Difference[]): DriftCause[] {
  const bySignature = new Map<string, Difference[]>();
  for (const d of differences.filter((d) => d.aspect !== 'verdict')) {
    const signature = describeDifference(d);
    bySignature.set(signature, [...(bySignature.get(signature) ?? []), d]);
  }
  // Signatures seen at exactly the same places are one change read by more than one aspect.
  const byPlaces = new Map<string, { what: string[]; found: Difference[] }>();
  for (const [signature, found] of bySignature) {
    const places = [...new Set(found.map(placeOf))].join('\n');
    const cause = byPlaces.get(places) ?? { what: [], found: [] };
    cause.what.push(signature);
    cause.found.push(...found);
    byPlaces.set(places, cause);
  }
  return [...byPlaces.entries()]
    .map(([places, { what, found }]) => causeOf(places.split('\n'), what, found))
    .sort((x, y) => y.places.length - x.places.length);
}

function causeOf(places: string[], what: string[], found: readonly Difference[]): DriftCause {
  const routes = new Map<string, number>();
  for (const place of places) {
    const route = place.split(' · ')[0]!;
    routes.set(route, (routes.get(route) ?? 0) + 1);
  }
  const first = found.find((d) => placeOf(d) === places[0])!;
  const steps = [...new Set(found.filter((d) => placeOf(d) === places[0]).flatMap((d) => d.steps))];
  return {
    what,
    places,
    routes: [...routes].map(([route, n]) => `${route} ${n}`),
    example: `${placeOf(first)}${steps.length === 0 ? '' : ` [${steps.join(', ')}]`}`,
    differences: found.length,
  };
}

/** `task.progress-range (documented §2.2): A fail · B pass, at getVideo · in_progress · owner`. */
export const describeVerdict = (d: Difference): string =>
  `${d.where}: A ${d.a} · B ${d.b}${d.cell === 'contract' ? '' : `, at ${placeOf(d)}`}`;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * The drift in one line, for a CI log: how many differences from how many causes, and the contract
 * verdicts that differ first (they say which documented rule one side breaks).
 */
export function driftSummaryLine(differences: readonly Difference[], complete: boolean): string {
  if (differences.length === 0)
    return complete
      ? 'no difference: B answers every step as A does'
      : 'no difference seen, but a side stopped before the sequence was done';
  const verdicts = differences.filter((d) => d.aspect === 'verdict');
  const causes = driftCauses(differences);
  const failing = (side: 'a' | 'b') =>
    verdicts.filter((d) => d[side] === 'fail').map((d) => d.where.split(' ')[0]!);
  const sides = (['a', 'b'] as const)
    .filter((side) => failing(side).length > 0)
    .map((side) => `${side.toUpperCase()} alone fails ${failing(side).join(', ')}`);
  const parts = [
    ...(verdicts.length === 0
      ? []
      : [
          `${plural(verdicts.length, 'contract verdict')} ${verdicts.length === 1 ? 'differs' : 'differ'}`,
        ]),
    ...(causes.length === 0 ? [] : [plural(causes.length, 'other cause')]),
  ];
  return (
    `DRIFT: ${plural(differences.length, 'difference')}: ${parts.join(' and ')}` +
    (sides.length === 0 ? '' : ` (${sides.join('; ')})`)
  );
}
