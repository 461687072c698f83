import { describe, expect, it } from 'vitest';
import { expectConformant, expectJsonError } from '../helpers/conformance.ts';
import { coreClient } from '../helpers/core-client.ts';
import { form, KITE_FIELDS, TYPE } from '../helpers/multipart-form.ts';

describe('multipart submissions', () => {
  const submitForm = (profile: 'observed' | 'documented', body: string, contentType = TYPE) => {
    const client = coreClient({ profile });
    const response = client.call('POST', '/v1/videos', {
      raw: body,
      headers: { 'content-type': contentType },
    });
    return { ...client, response };
  };

  it(
    'are read as the gateway reads them in the observed profile: fields, ' +
      'repeated images, the rest into metadata',
    () => {
      const body = form([...KITE_FIELDS, ['duration', '8'], ['ratio', '16:9']]);
      const { response, service, call } = submitForm('observed', body);
      expectConformant('createVideo', response);
      expect(response.status).toBe(200);
      const { id } = response.body as { id: string };
      expect(response.body).toMatchObject({ model: 'video-pro-v1', status: 'queued' });
      const inspected = call('GET', `/__mock/tasks/${id}`).body as { charge: { seconds: number } };
      expect(inspected.charge.seconds).toBe(8);
      expect(service.store.size).toBe(1);
    },
  );

  it.each([
    [
      'an empty prompt',
      form([
        ['model', 'video-pro-v1'],
        ['prompt', ' '],
      ]),
      400,
      /prompt is required/,
    ],
    [
      'a file part',
      form([
        ['model', 'video-pro-v1'],
        ['prompt', 'p'],
        ['input_reference', 'PNG', 'ref.png'],
      ]),
      400,
      /file upload is not accepted/,
    ],
    [
      'an unreadable body',
      'garbage',
      400,
      /multipart\/form-data body cannot be read: the body holds no boundary/,
    ],
    [
      'a boolean, which the gateway does not parse (numbers only)',
      form([
        ['model', 'video-pro-v1'],
        ['prompt', 'p'],
        ['generate_audio', 'false'],
      ]),
      400,
      /metadata\.generate_audio must be boolean/,
    ],
    [
      'a duration out of range',
      form([
        ['model', 'video-pro-v1'],
        ['prompt', 'p'],
        ['seconds', '0'],
      ]),
      400,
      /seconds must be a number of seconds between 1 and 3600/,
    ],
  ])(
    'refuse %s in the observed profile with a JSON 4xx, creating nothing',
    (_name, body, status, message) => {
      const { response, service } = submitForm('observed', body);
      expectConformant('createVideo', response);
      expectJsonError(response, status, message);
      expect(service.store.size).toBe(0);
    },
  );

  it('answer 415 in the documented profile (§4.1 and §5 name JSON)', () => {
    const { response, service } = submitForm(
      'documented',
      form([
        ['model', 'video-pro-v1'],
        ['prompt', 'p'],
      ]),
    );
    expectConformant('createVideo', response);
    expectJsonError(response, 415, /accepts JSON only \(§4\.1, §5\)/);
    expect(service.store.size).toBe(0);
  });

  it('over the size limit answer 413 before any parsing', () => {
    const client = coreClient({ profile: 'observed', maxBodyBytes: 1024 });
    const body = form([
      ['model', 'video-pro-v1'],
      ['prompt', 'p'.repeat(2000)],
    ]);
    const response = client.call('POST', '/v1/videos', {
      raw: body,
      headers: { 'content-type': TYPE },
    });
    expectConformant('createVideo', response);
    expectJsonError(response, 413, /1024 bytes/);
  });
});
