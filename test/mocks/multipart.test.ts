import { describe, expect, it } from 'vitest';
import { parseForm } from '../../mocks/core/multipart.ts';
import { formSubmission } from '../../mocks/core/routes/submit-form.ts';
import { serviceSpec } from '../../src/spec/index.ts';
import { expectConformant, expectJsonError } from '../helpers/conformance.ts';
import { coreClient } from '../helpers/core-client.ts';

const encoder = new TextEncoder();
const TYPE = 'multipart/form-data; boundary=XyZ';
/** What the openai SDK's videos.create sends, plus reference images. */
const KITE_FIELDS = [
  ['model', 'video-pro-v1'],
  ['prompt', 'a red kite'],
  ['seconds', '8'],
  ['size', '1280x720'],
  ['images', 'https://x.test/a.png'],
  ['images', 'https://x.test/b.png'],
] as const;

/** A form body from [name, value, filename?] fields, as FormData would write it. */
function form(fields: readonly (readonly [string, string, string?])[], boundary = 'XyZ'): string {
  const parts = fields.map(([name, value, filename]) => {
    const file = filename === undefined ? '' : `; filename="${filename}"`;
    const type = filename === undefined ? '' : '\r\nContent-Type: image/png';
    return `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${file}${type}\r\n\r\n${value}\r\n`;
  });
  return `${parts.join('')}--${boundary}--\r\n`;
}

describe('parseForm (mocks/core/multipart.ts)', () => {
  it('reads text fields in order, UTF-8 included, repeated names kept', () => {
    const body = form([
      ['prompt', 'un cerf-volant rouge, 夕焼け'],
      ['images', 'https://x.test/a.png'],
      ['images', 'https://x.test/b.png'],
    ]);
    expect(parseForm(encoder.encode(body), TYPE)).toEqual({
      parts: [
        { name: 'prompt', value: 'un cerf-volant rouge, 夕焼け' },
        { name: 'images', value: 'https://x.test/a.png' },
        { name: 'images', value: 'https://x.test/b.png' },
      ],
    });
  });

  it('takes a quoted boundary and ignores a preamble', () => {
    const body = `preamble\r\n${form([['model', 'video-pro-v1']], 'a b')}`;
    const parsed = parseForm(encoder.encode(body), 'multipart/form-data; boundary="a b"');
    expect(parsed).toEqual({ parts: [{ name: 'model', value: 'video-pro-v1' }] });
  });

  it('reports a file part by its file name', () => {
    const parsed = parseForm(encoder.encode(form([['input_reference', 'PNG', 'a.png']])), TYPE);
    expect(parsed).toEqual({ parts: [{ name: 'input_reference', filename: 'a.png', value: '' }] });
  });

  it.each([
    ['no boundary', 'multipart/form-data', form([['a', 'b']]), /names no boundary/],
    [
      'a boundary the body lacks',
      'multipart/form-data; boundary=Q',
      form([['a', 'b']]),
      /holds no boundary --Q/,
    ],
    [
      'an unclosed part',
      TYPE,
      '--XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\nb',
      /part 1 is not closed/,
    ],
    [
      'a part without headers end',
      TYPE,
      `--XyZ\r\n${'x'.repeat(5000)}`,
      /no end of headers within 4096 bytes/,
    ],
    ['a part without a name', TYPE, form([['', 'b']]), /part 1: no field name/],
    [
      'a part that is not form-data',
      TYPE,
      '--XyZ\r\nContent-Disposition: attachment; name="a"\r\n\r\nb\r\n--XyZ--',
      /not form-data/,
    ],
    [
      'too many parts',
      TYPE,
      form(Array.from({ length: 65 }, (_, i) => [`f${i}`, 'v'] as const)),
      /more than 64 parts/,
    ],
  ])('refuses %s, naming it', (_name, contentType, body, message) => {
    const parsed = parseForm(encoder.encode(body), contentType);
    expect('problem' in parsed && parsed.problem).toMatch(message);
  });

  it('refuses a field that is not UTF-8', () => {
    const head = encoder.encode('--XyZ\r\nContent-Disposition: form-data; name="prompt"\r\n\r\n');
    const body = new Uint8Array([...head, 0xff, 0xfe, ...encoder.encode('\r\n--XyZ--')]);
    expect(parseForm(body, TYPE)).toEqual({ problem: 'part 1: field prompt is not UTF-8 text' });
  });

  it('reads a 1 MiB body of boundary-like noise in linear time', () => {
    const noise = encoder.encode(`--XyZ\r\n${'\r\n--Xy'.repeat(200_000)}`);
    const started = performance.now();
    expect('problem' in parseForm(noise, TYPE)).toBe(true);
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

describe('formSubmission: the fields as the gateway reads them (spec SubmitForm)', () => {
  const submitForm = serviceSpec.components!.schemas!['SubmitForm']!;
  it('maps the named fields, repeats images, puts the rest into metadata with numbers parsed', () => {
    const body = form([
      ...KITE_FIELDS,
      ['mode', 'std'],
      ['image', 'https://x.test/0.png'],
      ['duration', '8'],
      ['cfg_scale', '0.5'],
      ['ratio', '16:9'],
      ['generate_audio', 'false'],
      ['__proto__', 'kept as a key'],
      ['model', 'ignored: the first one counts'],
    ]);
    expect(formSubmission(encoder.encode(body), TYPE, submitForm)).toEqual({
      value: {
        model: 'video-pro-v1',
        prompt: 'a red kite',
        mode: 'std',
        image: 'https://x.test/0.png',
        seconds: '8',
        size: '1280x720',
        images: ['https://x.test/a.png', 'https://x.test/b.png'],
        metadata: Object.fromEntries<unknown>([
          ['duration', 8],
          ['cfg_scale', 0.5],
          ['ratio', '16:9'],
          ['generate_audio', 'false'],
          ['__proto__', 'kept as a key'],
        ]),
      },
    });
  });
});

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
      /input_reference is a file \(ref\.png\): file upload is not accepted \(§2\.1\)/,
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
