import { expect } from 'vitest';
import {
  controlSpec,
  responseProblems,
  serviceContract,
  SpecValidators,
} from '../../src/spec/index.ts';
import type { CoreResponse } from '../../mocks/index.ts';

export interface SeenResponse {
  /** The request's method, when it matters (`HEAD`). */
  readonly method?: string | undefined;
  readonly status: number;
  readonly contentType: string;
  /** Parsed JSON, or the raw bytes of a non-JSON body, or undefined for none. */
  readonly body: unknown;
}

/** A core response as a test sees it. */
export function seen(response: CoreResponse): SeenResponse {
  const contentType = response.headers['content-type'] ?? '';
  const raw = response.body;
  const text =
    typeof raw === 'string' ? raw : raw === undefined ? undefined : new TextDecoder().decode(raw);
  const body: unknown =
    contentType.startsWith('application/json') && text !== undefined ? JSON.parse(text) : raw;
  return { status: response.status, contentType, body };
}

/** An answer read off the wire (fetch or node:http) as a test sees it: JSON parsed, else the bytes. */
export function seenBytes(status: number, contentType: string, bytes: Uint8Array): SeenResponse {
  const body: unknown =
    bytes.byteLength === 0
      ? undefined
      : contentType.startsWith('application/json')
        ? JSON.parse(new TextDecoder().decode(bytes))
        : bytes;
  return { status, contentType, body };
}

/**
 * Asserts that a response is one the spec declares for the operation: its status code, its media
 * type, its JSON body in both readings (documented rules and the assumptions the mock follows), and
 * the declared headers it carries (`responseProblems`). Fails on anything undeclared.
 */
export function expectConformant(operationId: string, response: SeenResponse): void {
  const { validators } = serviceContract();
  const { method, status, contentType, body } = response;
  const problems = responseProblems(validators, operationId, { method, status, contentType, body });
  expect(problems, problems.join('; ')).toEqual([]);
}

let control: SpecValidators | undefined;

/** The same for the mock's own control API (`spec/mock-control.yaml`). */
export function expectControlConformant(operationId: string, response: SeenResponse): void {
  control ??= new SpecValidators(controlSpec);
  const { method, status, contentType, body } = response;
  const problems = responseProblems(control, operationId, { method, status, contentType, body });
  expect(problems, problems.join('; ')).toEqual([]);
}

/** Asserts a JSON error whose message names the problem. */
export function expectJsonError(
  response: SeenResponse,
  status: number,
  messagePart?: RegExp,
): void {
  expect(response.status).toBe(status);
  expect(response.contentType).toMatch(/^application\/json/);
  const body = response.body as { error?: { message?: string }; message?: string };
  const message = body.error?.message ?? body.message ?? '';
  expect(message.length).toBeGreaterThan(0);
  if (messagePart !== undefined) expect(message).toMatch(messagePart);
}
