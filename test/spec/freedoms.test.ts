import { describe, expect, it } from 'vitest';
import { freedomAccount } from '../../contracts/freedom-account.ts';
import { documentFreedoms, readFreedoms, type Freedom } from '../../src/spec/freedoms.ts';
import { documentStatements } from '../../src/spec/statements.ts';

// spec/freedoms.yaml, the room the service document leaves (issue 31 item 1): its shape is checked by
// spec/freedoms.schema.json, what it names by the account lint-spec prints.
const statements = documentStatements();
const committed = documentFreedoms();
const one = committed.find((f) => f.id === 'error-bodies')!;

const accountOf = (freedoms: readonly Freedom[]) => freedomAccount({ freedoms, statements });

describe('the committed freedom table', () => {
  it('names only statements, checks and assumption checks that exist', () => {
    const account = accountOf(committed);
    expect(account.problems).toEqual([]);
    expect(account.freedoms).toBeGreaterThanOrEqual(15);
    expect(account.variations).toBeGreaterThan(account.freedoms * 2);
  });

  it("says which checks rely on each freedom: its statements' checks and those it names", () => {
    const line = accountOf(committed).list.find((f) => f.id === 'error-bodies')!;
    expect(line.checks).toEqual(expect.arrayContaining(['errors.envelope', 'content.json-errors']));
    expect(accountOf(committed).byCheck['errors.envelope']).toContain('error-bodies');
  });

  it('holds each freedom the issue names', () => {
    const ids = committed.map((f) => f.id);
    for (const id of [
      'base-url-path',
      'rate-limiting',
      'task-timing',
      'unknown-state',
      'extra-fields',
      'transport',
      'video-delivery',
      'task-id-form',
      'error-bodies',
      'catalog',
      'second-family-unbound',
      'native-shapes',
    ])
      expect(ids).toContain(id);
  });
});

describe('a freedom table that is wrong', () => {
  it.each([
    [{ freedoms: [] }, /must NOT have fewer than 1 items/],
    [{ freedoms: [{ ...one, id: 'Error Bodies' }] }, /\/freedoms\/0\/id: must match pattern/],
    [
      { freedoms: [{ ...one, variations: [one.variations[0]] }] },
      /variations: must NOT have fewer/,
    ],
    [{ freedoms: [{ ...one, colour: 'red' }] }, /must NOT have additional properties/],
    [{ freedoms: [one, one] }, /freedom error-bodies is listed twice/],
  ])('is refused by its schema or reader, naming the field: %#', (table, message) => {
    expect(() => readFreedoms(table)).toThrow(message);
  });

  it.each([
    [
      { statements: ['7-no-such-row'] },
      /touches the statement 7-no-such-row, which spec\/statements/,
    ],
    [{ checks: ['errors.nope'] }, /names the check errors.nope, which contracts\/checks/],
    [{ says: 'Error bodies are whatever.' }, /is in none of its statements' texts/],
    [{ section: '§5' }, /is in §5, but none of its statements is/],
    [
      {
        variations: [
          { id: 'bad', text: 'no task_id', departs: ['task.presence-completed'], hides: [] },
        ],
      },
      /departs from task.presence-completed, a check of a documented rule: that is a break/,
    ],
  ])('names what does not exist or fit: %#', (change, problem) => {
    const changed: Freedom = { ...one, ...change };
    expect(accountOf([changed]).problems.join('\n')).toMatch(problem);
  });
});
