// The parts of a resolved call: mutated task IDs, reshaped paths and encoded bodies.
import type { BodySpec, IdMutation, PathShape } from './call-types.ts';

const encoder = new TextEncoder();
/** A well-formed ID no task has (task IDs are random over 62 symbols; these are all 'Z' and digits). */
export function missingId(n: number): string {
  return `task_${String(n).padStart(32, 'Z')}`;
}

export function mutateId(id: string, mutation: IdMutation): string {
  switch (mutation) {
    case 'none':
      return id;
    case 'upper':
      return id.toUpperCase();
    case 'truncate':
      return id.slice(0, -1);
    case 'extend':
      return `${id}0`;
    case 'encode-one':
      return `%${id.charCodeAt(0).toString(16).toUpperCase()}${id.slice(1)}`; // decodes to the same ID
    case 'encode-all':
      return [...id].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
    case 'broken-escape':
      return `${id}%E0%A4%A`;
    case 'space':
      return `%20${id}`;
    case 'unicode':
      return `${id}é`;
    case 'long':
      return `${id}${'a'.repeat(10_000)}`;
    case 'nul':
      return `${id}%00`;
    case 'dot-dot':
      return '..';
    case 'empty':
      return '';
  }
}

export function reshape(path: string, shape: PathShape): string {
  switch (shape) {
    case 'none':
      return path;
    case 'trailing-slash':
      return `${path}/`;
    case 'double-slash':
      return path.replace(/^(\/[^/]*)\//, '$1//');
    case 'leading-double-slash':
      return `/${path}`;
    case 'dot':
      return path.replace(/^(\/[^/]*)\//, '$1/./');
    case 'dot-dot':
      return path.replace(/^(\/[^/]*)\//, '$1/x/../');
    case 'upper':
      return path.toUpperCase();
    case 'encode-literal':
      return path.replace(
        /^\/([A-Za-z_])/,
        (_m, c: string) => `/%${c.charCodeAt(0).toString(16).toUpperCase()}`,
      );
    case 'no-leading-slash':
      return path.slice(1);
    case 'absolute':
      return `http://127.0.0.1${path}`;
    case 'fragment':
      return `${path}#frag`;
    case 'backslash':
      return path.replace('/', '\\');
  }
}

export function encodeBody(body: BodySpec, maxBodyBytes: number): Uint8Array | undefined {
  switch (body.kind) {
    case 'none':
      return undefined;
    case 'text':
      return encoder.encode(body.text);
    case 'bytes':
      return body.bytes;
    case 'sized': {
      const target = Math.max(2, maxBodyBytes + body.delta);
      const base = JSON.stringify({ model: body.model, prompt: '' }).length;
      return encoder.encode(
        JSON.stringify({ model: body.model, prompt: 'a'.repeat(Math.max(1, target - base)) }),
      );
    }
    case 'json': {
      const text = JSON.stringify(body.value) ?? 'null';
      if (body.encoding === 'utf8') return encoder.encode(text);
      if (body.encoding === 'utf8-bom')
        return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]);
      if (body.encoding === 'utf16le') return Buffer.from(`\ufeff${text}`, 'utf16le');
      return Buffer.from(text, 'latin1');
    }
  }
}
