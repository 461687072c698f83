import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVICE_DOCUMENT_PATH, SHARED_DOCUMENT_PATH } from '../helpers/service-document.ts';

describe('the service document', () => {
  // spec/service-document.md is the copy the spec was written from. When the live contract beside
  // the clone changes, the spec must be reviewed: this test says so instead of letting them drift.
  it.runIf(existsSync(SHARED_DOCUMENT_PATH))('is the copy the spec was written from', () => {
    const live = readFileSync(SHARED_DOCUMENT_PATH, 'utf8');
    const copy = readFileSync(SERVICE_DOCUMENT_PATH, 'utf8');
    expect(
      copy === live,
      'shared/service/video-task-service.md changed: review spec/openapi.yaml ' +
        'against it, then copy it to spec/service-document.md',
    ).toBe(true);
  });
});
