// What a generated call is, before `FuzzWorld.resolve` makes it concrete (see arbitraries.ts).
/** Which task a path parameter names, resolved when the call is made. */
export interface TaskRef {
  readonly who: 'own' | 'other' | 'any' | 'missing';
  readonly index: number;
}

export type IdMutation =
  | 'none'
  | 'upper'
  | 'truncate'
  | 'extend'
  | 'encode-one'
  | 'encode-all'
  | 'broken-escape'
  | 'space'
  | 'unicode'
  | 'long'
  | 'nul'
  | 'dot-dot'
  | 'empty';

export type Segment =
  | { readonly kind: 'task'; readonly ref: TaskRef; readonly mutation: IdMutation }
  | {
      readonly kind: 'artifact';
      readonly ref: TaskRef;
      readonly variant: 'valid' | 'expired' | 'forged' | 'bare' | 'no-ext';
    }
  | { readonly kind: 'text'; readonly text: string };

export type PathShape =
  | 'none'
  | 'trailing-slash'
  | 'double-slash'
  | 'leading-double-slash'
  | 'dot'
  | 'dot-dot'
  | 'upper'
  | 'encode-literal'
  | 'no-leading-slash'
  | 'absolute'
  | 'fragment'
  | 'backslash';

export type AuthSpec =
  | { readonly kind: 'none' }
  | { readonly kind: 'key'; readonly index: number; readonly scheme: string }
  | { readonly kind: 'admin' }
  | { readonly kind: 'raw'; readonly value: string };

export type BodySpec =
  | { readonly kind: 'none' }
  | {
      readonly kind: 'json';
      readonly value: unknown;
      readonly encoding: 'utf8' | 'utf8-bom' | 'utf16le' | 'latin1';
    }
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'bytes'; readonly bytes: Uint8Array }
  /** A valid submission padded to the body limit plus `delta` bytes. */
  | { readonly kind: 'sized'; readonly delta: number; readonly model: string };

export interface CallSpec {
  readonly template: string;
  /** `null`: one of the template's own methods (`methodIndex`), else this method. */
  readonly method: string | null;
  readonly methodIndex: number;
  readonly params: readonly Segment[];
  readonly shape: PathShape;
  readonly query: string;
  readonly auth: AuthSpec;
  /** `null`: no Content-Type header. */
  readonly contentType: string | null;
  /** `null`: no X-Mock-Scenario header. */
  readonly scenario: string | null;
  readonly extraHeaders: readonly (readonly [string, string])[];
  readonly body: BodySpec;
}
