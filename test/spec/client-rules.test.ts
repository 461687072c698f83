import { describe, expect, it } from 'vitest';
import {
  CLIENT_RULES,
  checkExtensions,
  readClientRules,
  serviceSpec,
  type OpenApiDocument,
} from '../../src/spec/index.ts';
import { ruleTable } from '../../mocks/core/client-verdicts/rule-table.ts';

const withRules = (rules: unknown[]): OpenApiDocument => ({
  ...serviceSpec,
  'x-client-rules': { rules },
});
const rule = (extra: object) => ({
  id: 'r',
  'x-source': '§7',
  breach: 'what is counted',
  advice: 'what to do',
  ...extra,
});

describe('x-client-rules', () => {
  it('reads each rule with the outcome its basis decides', () => {
    const outcome = Object.fromEntries(CLIENT_RULES.map((r) => [r.id, r.outcome]));
    expect(outcome['no-resubmission']).toBe('violation');
    expect(outcome['poll-interval']).toBe('advice');
    // §8's polling loop: "These are recommendations, not server-enforced values".
    for (const id of ['poll-growth', 'poll-attempts', 'total-timeout'])
      expect(outcome[id], id).toBe('advice');
    expect(outcome['multipart-submission']).toBe('note');
    expect(CLIENT_RULES.filter((r) => !r.judged).every((r) => (r.why ?? '').length > 20)).toBe(
      true,
    );
  });

  it.each([
    ['a rule without a section', [rule({ 'x-source': undefined })], /needs x-source/],
    ['a duplicate id', [rule({}), rule({})], /duplicate id "r"/],
    ['a judged rule without breach', [rule({ breach: undefined })], /breach must be/],
    ['a rule traffic cannot judge without why', [rule({ judged: false })], /why must be/],
    ['a rule without advice', [rule({ advice: '' })], /advice must be/],
    [
      'an assumed recommendation',
      [rule({ 'x-recommendation': true, 'x-documented': false })],
      /recommendation is documented/,
    ],
    [
      'a parameter that is not a number',
      [rule({ parameters: { maxInRow: 'ten' } })],
      /parameter maxInRow/,
    ],
  ])('refuses %s, naming it (lint-spec too)', (_name, rules, message) => {
    expect(() => readClientRules(withRules(rules))).toThrow(message);
    expect(() => checkExtensions(withRules(rules))).toThrow(message);
  });

  it('has a judge for every judged rule, and a judged rule for every judge', () => {
    expect(() => ruleTable(CLIENT_RULES)).not.toThrow();
    const extra = [...CLIENT_RULES, { ...CLIENT_RULES[0]!, id: 'brand-new-rule' }];
    expect(() => ruleTable(extra)).toThrow(/brand-new-rule judged, but the mock has no judge/);
    const missing = CLIENT_RULES.filter((r) => r.id !== 'poll-interval');
    expect(() => ruleTable(missing)).toThrow(/no judged rule "poll-interval"/);
    const unmeasured = CLIENT_RULES.map((r) =>
      r.id === 'poll-interval' ? { ...r, parameters: {} } : r,
    );
    expect(() => ruleTable(unmeasured)).toThrow(/needs the parameter minIntervalFraction/);
  });
});
