// Generators for how a socket case is put on the wire: request line, header case, framing, early close.
import fc from 'fast-check';
import { callSpec, clockStep, type CallSpec } from './arbitraries.ts';
export interface WireSpec {
  readonly requestLine:
    | 'normal'
    | 'extra-space'
    | 'tab'
    | 'lowercase-version'
    | 'no-version'
    | 'http10'
    | 'http2'
    | 'http12'
    | 'garbage'
    | 'bare-lf';
  readonly nameCase: 'lower' | 'title' | 'upper';
  readonly host: 'ok' | 'missing' | 'odd' | 'twice' | 'empty';
  readonly close: boolean;
  readonly framing:
    | 'auto'
    | 'chunked'
    | 'none'
    | 'length-dup'
    | 'length-conflict'
    | 'length-and-chunked'
    | 'bad-chunk'
    | 'length-lies-long'
    | 'length-lies-short'
    | 'length-garbage';
  readonly early: 'none' | 'destroy-after-headers' | 'destroy-mid-body' | 'half-close-mid-body';
  readonly injected: readonly Uint8Array[];
  readonly expect: string | null;
  readonly pieces: number;
}

const injectedLine: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc
    .constantFrom(
      'X-Nul: a\u0000b',
      'X-Del: a\u007fb',
      'Bad Name: x',
      ': no-name',
      ' folded continuation',
      'X-No-Colon',
      'X-Tab:\tv',
      'X-Bare-CR: a\rb',
      'Content-Length: 5, 5',
      'Transfer-Encoding: chunked, chunked',
      'Transfer-Encoding: identity',
      'Host: second.test',
      'Authorization: Bearer sk-mock-bob',
      'Content-Type: text/plain',
      'X-Mock-Scenario: flaky',
      'X-Mock-Scenario: fail-at-submit:503',
      'Connection: upgrade',
      'Upgrade: websocket',
      'Upgrade: h2c',
      'Expect: 100-continue',
      'Expect: nonsense',
      'Origin: http://app.test',
      'Cookie: a=1',
      'Cookie: b=2',
    )
    .map((s) => Buffer.from(s, 'latin1')),
  fc.constantFrom(
    Buffer.from('X-Obs: \xff\xfe\x80', 'latin1'),
    Buffer.from('X-Utf8: é🎥', 'utf8'),
    Buffer.from('X-Huge: ' + 'a'.repeat(20_000)),
    Buffer.from('X-Big: ' + 'b'.repeat(8_000)),
  ),
  fc
    .nat(300)
    .map((n) => Buffer.from(Array.from({ length: n }, (_, i) => `X-Many-${i}: v`).join('\r\n'))),
  fc.uint8Array({ maxLength: 40 }).map((b) => Buffer.from(b)),
  fc
    .tuple(
      fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,20}$/),
      fc.string({ unit: 'binary-ascii', maxLength: 40 }),
    )
    .map(([n, v]) => Buffer.from(`${n}: ${v.replace(/[\r\n]/g, '')}`, 'latin1')),
);

const mangledWire: fc.Arbitrary<WireSpec> = fc.record({
  requestLine: fc.oneof(
    { weight: 20, arbitrary: fc.constant('normal' as const) },
    {
      weight: 3,
      arbitrary: fc.constantFrom<WireSpec['requestLine']>(
        'extra-space',
        'tab',
        'lowercase-version',
        'no-version',
        'http10',
        'http2',
        'http12',
        'garbage',
        'bare-lf',
      ),
    },
  ),
  nameCase: fc.constantFrom<WireSpec['nameCase']>('lower', 'lower', 'title', 'upper'),
  host: fc.oneof(
    { weight: 12, arbitrary: fc.constant('ok' as const) },
    { weight: 2, arbitrary: fc.constantFrom<WireSpec['host']>('missing', 'odd', 'twice', 'empty') },
  ),
  close: fc.boolean(),
  framing: fc.oneof(
    { weight: 14, arbitrary: fc.constant('auto' as const) },
    { weight: 3, arbitrary: fc.constant('chunked' as const) },
    {
      weight: 3,
      arbitrary: fc.constantFrom<WireSpec['framing']>(
        'none',
        'length-dup',
        'length-conflict',
        'length-and-chunked',
        'bad-chunk',
        'length-lies-long',
        'length-lies-short',
        'length-garbage',
      ),
    },
  ),
  early: fc.oneof(
    { weight: 14, arbitrary: fc.constant('none' as const) },
    {
      weight: 2,
      arbitrary: fc.constantFrom<WireSpec['early']>(
        'destroy-after-headers',
        'destroy-mid-body',
        'half-close-mid-body',
      ),
    },
  ),
  injected: fc.oneof(
    { weight: 6, arbitrary: fc.constant([]) },
    { weight: 2, arbitrary: fc.array(injectedLine, { minLength: 1, maxLength: 3 }) },
  ),
  expect: fc.oneof(
    { weight: 10, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: fc.constantFrom('100-continue', 'nonsense', '100-continue, foo') },
  ),
  pieces: fc.integer({ min: 1, max: 4 }),
});

/** Half the cases are well-formed HTTP (so the service behind the host is exercised), half mangled on the wire. */
export const wireSpec: fc.Arbitrary<WireSpec> = fc.oneof(
  fc.record({
    requestLine: fc.constant('normal' as const),
    nameCase: fc.constantFrom<WireSpec['nameCase']>('lower', 'title', 'upper'),
    host: fc.constant('ok' as const),
    close: fc.boolean(),
    framing: fc.constantFrom<WireSpec['framing']>('auto', 'auto', 'chunked'),
    early: fc.constant('none' as const),
    injected: fc.constant([]),
    expect: fc.constantFrom(null, null, null, '100-continue'),
    pieces: fc.integer({ min: 1, max: 3 }),
  }),
  mangledWire,
);

export interface SocketCase {
  readonly advance: number;
  readonly call: CallSpec;
  readonly wire: WireSpec;
}

export const socketCase: fc.Arbitrary<SocketCase> = fc.record({
  advance: clockStep,
  call: callSpec(8),
  wire: wireSpec,
});
