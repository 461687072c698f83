import { describe, expect, it } from 'vitest';
import { parseForm } from '../../mocks/core/http/multipart.ts';
import { formSubmission } from '../../mocks/core/routes/submit-form.ts';
import { serviceSpec } from '../../src/spec/index.ts';
import { encoder, form, KITE_FIELDS, TYPE } from '../helpers/multipart-form.ts';
import { cpuMs } from '../helpers/cpu-time.ts';

describe('parseForm (mocks/core/http/multipart.ts)', () => {
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
    expect(cpuMs(() => expect('problem' in parseForm(noise, TYPE)).toBe(true))).toBeLessThan(1_000);
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
