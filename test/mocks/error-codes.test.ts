import { describe, expect, it } from 'vitest';
import { ERROR_TEMPLATES, errorBody, type ErrorKind } from '../../mocks/core/http/errors.ts';
import { PROFILES } from '../../mocks/core/profile/profiles.ts';
import {
  SpecValidators,
  controlSpec,
  readErrorCodes,
  responseProblems,
  serviceContract,
  type ErrorCodeRow,
} from '../../src/spec/index.ts';

// The mock's error table (mocks/core/http/errors.ts) against the specs' `x-error-codes` tables: every error the
// mock can send is declared, with its status and envelope, by the operations that answer it.
const { validators: service } = serviceContract();
const control = new SpecValidators(controlSpec);
const rows = [
  ...readErrorCodes(service.document).map((row) => ({ row, spec: 'openapi.yaml' })),
  ...readErrorCodes(controlSpec).map((row) => ({ row, spec: 'mock-control.yaml' })),
];
const kinds = Object.keys(ERROR_TEMPLATES) as ErrorKind[];
const DETAIL = {
  model: 'video-pro-v1',
  group: 'default',
  status: 'IN_PROGRESS',
  problem: 'prompt must be a string',
  method: 'GET',
  path: '/v1/nothing',
  contentType: 'text/plain',
  limit: 1024,
  range: 'bytes=9999-',
  size: 6592,
  taskId: 'task_Q2x7rB0pV4mN8sK1dF6hJ3gL9tY5wE2a',
  upstream: '{"error":{"code":"InvalidParameter","message":"m"}}',
};

function sameRow(kind: ErrorKind, row: ErrorCodeRow): boolean {
  const template = ERROR_TEMPLATES[kind];
  return (
    row.code === template.code &&
    row.status === template.status &&
    row.envelope === template.envelope
  );
}

/** The body the mock sends for a row, or one in the row's envelope for a code the mock never sends. */
function bodyOf(row: ErrorCodeRow): Record<string, unknown> {
  const kind = kinds.find((k) => sameRow(k, row));
  if (kind !== undefined) return errorBody(kind, DETAIL).body;
  const message = row.description;
  if (row.envelope === 'task') return { code: row.code, message, data: null };
  if (row.envelope === 'plugin') return { error: { code: row.code, message } };
  return { error: { message, type: 'server_error', code: row.code } };
}

function validatorsFor(operationId: string): SpecValidators {
  return service.operations().some((o) => o.operationId === operationId) ? service : control;
}

describe("the mock's error table against the specs' x-error-codes", () => {
  it.each(kinds)('declares the error %s with its code, status and envelope', (kind) => {
    const template = ERROR_TEMPLATES[kind];
    const declared = rows.filter(({ row }) => sameRow(kind, row));
    const where = declared.map(({ spec }) => spec);
    expect(
      where.length,
      `${template.code} ${template.status} (${template.envelope})`,
    ).toBeGreaterThan(0);
    expect(new Set(where).size, 'one row per spec').toBe(where.length);
  });

  it('declares the errors each profile answers instead', () => {
    for (const profile of Object.values(PROFILES))
      for (const kind of Object.values(profile.errors))
        expect(
          rows.some(({ row }) => sameRow(kind, row)),
          `${profile.name}: ${kind}`,
        ).toBe(true);
  });

  it.each(
    rows.map(({ row, spec }) => [`${row.code || '""'} ${row.status} (${spec})`, row] as const),
  )('%s: every operation it names declares the status and accepts the body', (_name, row) => {
    const body = bodyOf(row);
    for (const operationId of row.operations) {
      const validators = validatorsFor(operationId);
      const head = validators.operation(operationId).method === 'head';
      const answer = head
        ? { method: 'HEAD', status: row.status, contentType: '', body: undefined }
        : { status: row.status, contentType: 'application/json; charset=utf-8', body };
      expect(responseProblems(validators, operationId, answer), operationId).toEqual([]);
    }
  });

  it('names only operations the specs declare', () => {
    const known = new Set(
      [...service.operations(), ...control.operations()].map((o) => o.operationId),
    );
    const unknown = rows.flatMap(({ row }) => row.operations.filter((o) => !known.has(o)));
    expect(unknown).toEqual([]);
  });

  it('answers an expired temporary address with the gateway code artifact_gone, not another', () => {
    const expired = rows.filter(({ row }) => row.status === 410).map(({ row }) => row.code);
    expect(new Set(expired)).toEqual(new Set(['artifact_gone']));
    expect(kinds.filter((k) => ERROR_TEMPLATES[k].status === 410)).toEqual(['artifact_gone']);
  });
});
