import { describe, expect, it } from 'vitest';
import { serviceContract } from '../../src/spec/index.ts';

const { validators } = serviceContract();
const task = { id: 'task_a', object: 'video', model: 'm', status: 'queued', progress: 0 };

describe('SpecValidators', () => {
  it('finds a response by exact code, then by class, and reports its basis', () => {
    expect(validators.response('getVideo', 200)).toMatchObject({
      key: '200',
      basis: { documented: true, source: '§4.2' },
    });
    expect(validators.response('getVideo', 503)).toMatchObject({
      key: '5XX',
      basis: { documented: true, source: '§7' },
    });
    expect(validators.response('getVideo', 404)).toMatchObject({
      key: '404',
      basis: { documented: false },
    });
    expect(validators.response('getVideo', 418)).toBeUndefined();
  });
  it('matches media type wildcards and parameters', () => {
    expect(validators.response('getVideoContent', 200)!.body('video/mp4')).toBeDefined();
    expect(
      validators.response('getVideo', 200)!.body('application/json; charset=utf-8'),
    ).toBeDefined();
    expect(validators.response('getVideo', 200)!.body('text/html')).toBeUndefined();
  });
  it('names what is wrong with a task object', () => {
    const result = validators
      .response('getVideo', 200)!
      .body('application/json')!
      .validate({ ...task, object: 'clip', progress: 101, status: 'done' });
    expect(result.errors).toEqual([
      '/object must be "video"',
      '/status must be one of ["queued","in_progress","completed","failed","unknown"]',
      '/progress must be <= 100',
    ]);
  });
  it('accepts fields a deployment adds of its own', () => {
    expect(
      validators.schema('VideoTask').validate({ ...task, seconds: '5', size: '720x1280' }).valid,
    ).toBe(true);
  });
  it('requires task_id and created_at on a submission answer', () => {
    expect(
      validators.response('createVideo', 200)!.body('application/json')!.validate(task).errors,
    ).toEqual([
      '(body) is missing required property "task_id"',
      '(body) is missing required property "created_at"',
    ]);
  });
  it('rejects an empty and a blank prompt (§7)', () => {
    const request = validators.request('createVideoGeneration')!;
    expect(request.validate({ model: 'm', prompt: '' }).valid).toBe(false);
    expect(request.validate({ model: 'm', prompt: ' \n\t' }).valid).toBe(false);
    expect(request.validate({ model: 'm', prompt: 'a kite' }).valid).toBe(true);
  });
  it('separates documented rules from assumptions', () => {
    // The error envelope is an assumption: any JSON passes the documented reading, not the full one.
    const error = validators.response('getVideo', 404)!.body('application/json')!;
    expect(error.validate({ whatever: true }).valid).toBe(true);
    expect(error.validateFull({ whatever: true }).valid).toBe(false);
    expect(
      error.validateFull({ error: { message: 'Task not found', type: 'invalid_request_error' } })
        .valid,
    ).toBe(true);
    // The structure of metadata.content items is not shown (§2.1).
    const request = validators.request('createVideo')!;
    const body = { model: 'alt-video-v2', prompt: 'p', metadata: { content: [{ uri: 'x' }] } };
    expect(request.validate(body).valid).toBe(true);
    expect(request.validateFull(body).errors).toEqual([
      '/metadata/content/0 is missing required property "type"',
    ]);
    // The wrapper's fields are listed without presence rules; the gateway always sends most of them.
    const wrapper = validators.schema('TaskWrapper');
    const bare = { code: 'success', message: '', data: {} };
    expect(wrapper.validate(bare).valid).toBe(true);
    expect(wrapper.validateFull(bare).errors).toContain(
      '/data is missing required property "task_id"',
    );
  });
  it('throws naming the operations for an unknown operationId', () => {
    expect(() => validators.operation('getVideos')).toThrow(
      /Unknown operationId "getVideos": the spec has createVideoGeneration/,
    );
  });
});
