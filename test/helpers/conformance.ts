import { expect } from 'vitest';
import { serviceContract } from '../../src/spec/index.ts';
import type { CoreResponse } from '../../mocks/index.ts';

export interface SeenResponse {
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
  const body =
    contentType.startsWith('application/json') && text !== undefined ? JSON.parse(text) : raw;
  return { status: response.status, contentType, body };
}

/**
 * Asserts that a response is one the spec declares for the operation (its status code, and its body
 * against the schema in both readings: documented rules and the assumptions the mock follows).
 */
export function expectConformant(operationId: string, response: SeenResponse): void {
  const { validators } = serviceContract();
  const declared = validators.response(operationId, response.status);
  expect(
    declared,
    `${operationId} answered ${response.status}, which the spec does not declare`,
  ).toBeDefined();
  const content = declared!.response.content;
  if (content === undefined || response.body === undefined) return;
  const schema = declared!.body(response.contentType);
  expect(
    schema,
    `${operationId} ${response.status}: content type ${response.contentType} is not declared (${Object.keys(content).join(', ')})`,
  ).toBeDefined();
  if (response.contentType.startsWith('application/json')) {
    expect(
      schema!.validate(response.body).errors,
      `${operationId} ${response.status} documented rules`,
    ).toEqual([]);
    expect(
      schema!.validateFull(response.body).errors,
      `${operationId} ${response.status} assumptions`,
    ).toEqual([]);
  }
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
