import {
  mapAnswers,
  parseCellKey,
  type BodyNode,
  type FailureReading,
  type LearnedAnswer,
  type LeafNode,
  type LearnedProfile,
  type ShapeNode,
} from '../../src/profile/index.ts';

/**
 * What a learned profile may keep of a deployment's texts (issue 33 item 6): the mock sends a profile
 * to every client, so it never keeps a value that varies by caller (what one user's answer holds where
 * another user's holds something else: a user name, a key's label) or that reads as a key (`secret`:
 * the run's one redaction finds a key in it, in any encoding it reads). Such a value is kept by its
 * kind alone: a constant becomes a `word` without values, a wording a `text` of its length, an
 * identifier's form a generic one; a field named by one, a model, a failure's wording, the error
 * ending and a wrapper word are left out. Masking is not enough: `sk-…abcd` in a profile is still a
 * part of a key, sent to everyone.
 */
export function withoutCallerValues(
  profile: LearnedProfile,
  secret: (text: string) => boolean,
): LearnedProfile {
  const varying = callerVaryingTexts(profile);
  const drop = (text: string) => varying.has(text) || secret(text);
  const { answers } = mapAnswers(profile, (answer) => keptAnswer(answer, drop));
  const { lifecycle, errors } = profile;
  const suffix = errors.messageSuffix;
  return {
    ...profile,
    models: profile.models.filter((m) => !drop(m)),
    errors: suffix === undefined || drop(suffix) ? {} : errors,
    lifecycle: {
      ...lifecycle,
      wrapperStatuses: Object.fromEntries(
        Object.entries(lifecycle.wrapperStatuses).filter(([, word]) => !drop(word)),
      ),
      failures: lifecycle.failures.map((f) => keptFailure(f, drop)),
    },
    answers,
  };
}

function keptAnswer(answer: LearnedAnswer, drop: (text: string) => boolean): LearnedAnswer {
  const headers = Object.fromEntries(
    Object.entries(answer.headers).map(([name, node]) => [name, keptNode(node, drop)]),
  );
  return { ...answer, headers, body: keptBody(answer.body, drop) };
}

function keptBody(body: BodyNode, drop: (text: string) => boolean): BodyNode {
  return 'binary' in body || 'none' in body ? body : keptNode(body, drop);
}

function keptFailure(f: FailureReading, drop: (text: string) => boolean): FailureReading {
  return Object.fromEntries(
    Object.entries(f).filter(([, text]) => typeof text === 'string' && !drop(text)),
  );
}

/** A shape with every text `drop` names kept by its kind alone (see `withoutCallerValues`). */
function keptNode(node: ShapeNode, drop: (text: string) => boolean): ShapeNode {
  if ('object' in node) {
    const fields = Object.entries(node.object).filter(([key]) => !drop(key));
    const kept = new Set(fields.map(([key]) => key));
    const object = Object.fromEntries(
      fields.map(([key, child]) => [key, keptNode(child, drop)]),
    ) as Record<string, ShapeNode>;
    const optional = node.optional?.filter((key) => kept.has(key));
    return optional === undefined || optional.length === 0 ? { object } : { object, optional };
  }
  if ('array' in node)
    return { array: node.array === null ? null : keptNode(node.array, drop), length: node.length };
  if ('oneOf' in node) return { oneOf: node.oneOf.map((m) => keptNode(m, drop)) };
  if ('const' in node)
    return typeof node.const === 'string' && drop(node.const) ? { kind: 'word' } : node;
  return keptLeaf(node, drop);
}

function keptLeaf(node: LeafNode, drop: (text: string) => boolean): LeafNode {
  const { template, form, values, ...rest } = node;
  const leaf: { -readonly [K in keyof LeafNode]: LeafNode[K] } = { ...rest };
  if (template !== undefined && !drop(template)) leaf.template = template;
  else if (template !== undefined) leaf.length ??= [template.length, template.length];
  if (form !== undefined) leaf.form = drop(form) ? '{alnum:24}' : form;
  const words = values?.filter((v) => !drop(v));
  if (words !== undefined && words.length > 0) leaf.values = words;
  return leaf;
}

/**
 * Texts that vary by caller: where the owner's and another user's answers to the same request (a
 * route without a task, a missing task; the same situation) both hold a fixed text at the same place
 * and the two differ, both are the callers' own.
 */
function callerVaryingTexts(profile: LearnedProfile): Set<string> {
  const varying = new Set<string>();
  for (const [cell, situations] of Object.entries(profile.answers)) {
    const key = parseCellKey(cell);
    // Both callers asked alike: a route without a task, or a task that does not exist (another
    // user's task is refused where its owner is answered: they differ by meaning, not by caller).
    if (key?.caller !== 'owner' || (key.state !== 'n/a' && key.state !== 'missing')) continue;
    const other = profile.answers[`${key.route} ${key.state} other`];
    if (other === undefined) continue;
    for (const [situation, mine] of Object.entries(situations)) {
      const theirs = other[situation as keyof typeof other];
      if (mine !== undefined && theirs !== undefined) differingAnswers(mine, theirs, varying);
    }
  }
  return varying;
}

/** Adds the fixed texts that differ between two answers' headers and bodies. */
function differingAnswers(mine: LearnedAnswer, theirs: LearnedAnswer, into: Set<string>): void {
  for (const [name, node] of Object.entries(mine.headers)) {
    const other = theirs.headers[name];
    if (other !== undefined) differing(node, other, into);
  }
  const [a, b] = [mine.body, theirs.body];
  if ('binary' in a || 'none' in a || 'binary' in b || 'none' in b) return;
  differing(a, b, into);
}

/** Adds the fixed texts that differ between two shapes at the same place. */
function differing(a: ShapeNode, b: ShapeNode, into: Set<string>): void {
  if ('object' in a && 'object' in b) {
    for (const [key, child] of Object.entries(a.object))
      if (Object.hasOwn(b.object, key)) differing(child, b.object[key]!, into);
    return;
  }
  if ('array' in a && 'array' in b) {
    if (a.array !== null && b.array !== null) differing(a.array, b.array, into);
    return;
  }
  const x = textsOf(a);
  const y = textsOf(b);
  if (x.length === 0 || y.length === 0) return;
  for (const text of x) if (!y.includes(text)) into.add(text);
  for (const text of y) if (!x.includes(text)) into.add(text);
}

/** The fixed texts of a leaf: a constant, a wording, the values of a word. */
function textsOf(node: ShapeNode): string[] {
  if ('const' in node) return typeof node.const === 'string' ? [node.const] : [];
  if ('kind' in node)
    return [...(node.template === undefined ? [] : [node.template]), ...(node.values ?? [])];
  if ('oneOf' in node) return node.oneOf.flatMap(textsOf);
  return [];
}
