import { fromBase62, toBase62 } from './base62.ts';
import type { MacFunction } from '../signing/sha256.ts';
import { PAYLOAD_BYTES, packFields, unpackFields, type TaskIdFields } from './task-id-layout.ts';

/** The gateway's task ID shape: `task_` + 32 of `[0-9A-Za-z]`. */
export const TASK_ID_PATTERN = /^task_[0-9A-Za-z]{32}$/;

const PREFIX = 'task_';
const DIGITS = 32;
const TAG_BYTES = 8;
const ID_BYTES = PAYLOAD_BYTES + TAG_BYTES;

/** An ID taken apart: its payload in clear and its tag, not yet checked against an owner. */
export interface OpenedId {
  readonly payload: Uint8Array;
  readonly tag: Uint8Array;
}

/**
 * Task IDs that carry their facts (decisions/010): payload ⊕ keystream, then a 64-bit tag.
 * tag = HMAC(macKey, payload ‖ generation ‖ owner)[0..8]; keystream = HMAC(streamKey, tag)[0..16] with its
 * first 4 bits cleared. The owner and the reset generation are in the tag, not in the ID: an ID checked
 * for another user, or from before a reset, is indistinguishable from a forged one (a missing task, §5).
 */
export class TaskIdCodec {
  readonly #mac: MacFunction;
  readonly #stream: MacFunction;
  readonly #owners = new Map<string, Uint8Array>();

  constructor(keys: { readonly mac: MacFunction; readonly stream: MacFunction }) {
    this.#mac = keys.mac;
    this.#stream = keys.stream;
  }

  encode(fields: TaskIdFields, owner: string, generation: number): string {
    const payload = packFields(fields);
    const tag = this.#tag(payload, owner, generation);
    const bytes = new Uint8Array(ID_BYTES);
    bytes.set(this.#crypt(payload, tag));
    bytes.set(tag, PAYLOAD_BYTES);
    return PREFIX + toBase62(bytes, DIGITS);
  }

  /** The payload and tag of a string shaped like a task ID; `undefined` otherwise. */
  open(id: string): OpenedId | undefined {
    if (id.length !== PREFIX.length + DIGITS || !id.startsWith(PREFIX)) return undefined;
    const bytes = fromBase62(id.slice(PREFIX.length), ID_BYTES);
    if (bytes === undefined || (bytes[0]! & 0xf0) !== 0) return undefined;
    const tag = bytes.subarray(PAYLOAD_BYTES);
    return { payload: this.#crypt(bytes.subarray(0, PAYLOAD_BYTES), tag), tag };
  }

  /** The fields of an opened ID made for `owner` in `generation`; `undefined` for anything else. */
  fieldsFor(opened: OpenedId, owner: string, generation: number): TaskIdFields | undefined {
    const expected = this.#tag(opened.payload, owner, generation);
    let difference = 0;
    for (let i = 0; i < TAG_BYTES; i++) difference |= expected[i]! ^ opened.tag[i]!;
    return difference === 0 ? unpackFields(opened.payload) : undefined;
  }

  #tag(payload: Uint8Array, owner: string, generation: number): Uint8Array {
    const name = this.#ownerBytes(owner);
    const message = new Uint8Array(PAYLOAD_BYTES + 4 + name.length);
    message.set(payload);
    message[PAYLOAD_BYTES] = generation >>> 24;
    message[PAYLOAD_BYTES + 1] = (generation >>> 16) & 0xff;
    message[PAYLOAD_BYTES + 2] = (generation >>> 8) & 0xff;
    message[PAYLOAD_BYTES + 3] = generation & 0xff;
    message.set(name, PAYLOAD_BYTES + 4);
    return this.#mac(message).subarray(0, TAG_BYTES);
  }

  /** payload ⊕ keystream(tag): the same function encrypts and decrypts. */
  #crypt(payload: Uint8Array, tag: Uint8Array): Uint8Array {
    const stream = this.#stream(tag);
    const out = new Uint8Array(PAYLOAD_BYTES);
    for (let i = 0; i < PAYLOAD_BYTES; i++) out[i] = payload[i]! ^ stream[i]!;
    out[0]! &= 0x0f;
    return out;
  }

  #ownerBytes(owner: string): Uint8Array {
    let bytes = this.#owners.get(owner);
    if (bytes === undefined) {
      bytes = new TextEncoder().encode(owner);
      if (this.#owners.size < 10_000) this.#owners.set(owner, bytes);
    }
    return bytes;
  }
}
