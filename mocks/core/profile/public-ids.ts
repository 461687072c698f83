import {
  FormCodec,
  formatForm,
  generateId,
  parseForm,
  type FormPart,
} from '../../../src/profile/index.ts';
import { BASE62_ALPHABET } from '../task-id/base62.ts';
import { createRandom } from '../plan/random.ts';

const CORE_PREFIX = 'task_';
const CORE_DIGITS = 32;
const CORE_CAPACITY = 62n ** 32n;
const CORE_ID = /task_[0-9A-Za-z]{32}/g;
/** Most pairs kept (a table for a form too small to carry the mock's IDs, a cache otherwise): ~25 MB. */
const MAX_ALIASES = 100_000;

/**
 * The mock's task IDs (`task_` + 32 base-62 digits carrying the task, decisions/010) in a learned
 * deployment's form. A form with room for them (`vtsk-{alnum:32}`, `{hex:48}`) carries them as they are,
 * re-encoded: any process with the secret answers any task. A smaller one (a UUID: 122 bits) cannot:
 * its IDs are drawn per task and kept in this process's memory (they do not survive a restart and are
 * not shared with other workers; decisions/018).
 */
export class PublicIds {
  readonly identity: boolean;
  readonly #codec: FormCodec | undefined;
  readonly #parts: readonly FormPart[];
  readonly #toCore = new Map<string, string>();
  readonly #toPublic = new Map<string, string>();

  constructor(form: string) {
    this.#parts = parseForm(form);
    this.identity = formatForm(this.#parts) === `${CORE_PREFIX}{alnum:${CORE_DIGITS}}`;
    const codec = new FormCodec(this.#parts);
    this.#codec = codec.capacity >= CORE_CAPACITY ? codec : undefined;
  }

  /** Whether IDs survive a restart and are shared by every worker (the form has room for them). */
  get stateless(): boolean {
    return this.identity || this.#codec !== undefined;
  }

  toPublic(coreId: string): string {
    if (this.identity) return coreId;
    const known = this.#toPublic.get(coreId);
    if (known !== undefined) return known;
    const value = coreValue(coreId);
    if (value === undefined) return coreId;
    if (this.#codec !== undefined) return this.#remember(coreId, this.#codec.encode(value));
    const random = createRandom(`public-id/${coreId}`);
    return this.#remember(
      coreId,
      generateId(this.#parts, () => random.next()),
    );
  }

  /** The mock's own ID behind a public one; undefined when it names no task of this mock. */
  toCore(publicId: string): string | undefined {
    if (this.identity) return publicId;
    const known = this.#toCore.get(publicId);
    if (known !== undefined || this.#codec === undefined) return known;
    const value = this.#codec.decode(publicId);
    if (value === undefined || value >= CORE_CAPACITY) return undefined;
    const core = coreId(value);
    this.#remember(core, publicId);
    return core;
  }

  /**
   * Keeps a pair both ways: the table a small form needs, a cache for a form that re-encodes (BigInt
   * arithmetic costs tens of microseconds; a client asks about the same tasks again and again).
   */
  #remember(core: string, alias: string): string {
    if (this.#toCore.size >= MAX_ALIASES) this.#forgetOldest();
    this.#toCore.set(alias, core);
    this.#toPublic.set(core, alias);
    return alias;
  }

  /** Every mock task ID in a text, in the public form (answers the replay did not render itself). */
  inText(text: string): string {
    return this.identity ? text : text.replace(CORE_ID, (id) => this.toPublic(id));
  }

  #forgetOldest(): void {
    const [alias, core] = this.#toCore.entries().next().value as [string, string];
    this.#toCore.delete(alias);
    this.#toPublic.delete(core);
  }
}

function coreValue(id: string): bigint | undefined {
  if (id.length !== CORE_PREFIX.length + CORE_DIGITS || !id.startsWith(CORE_PREFIX))
    return undefined;
  let value = 0n;
  for (const c of id.slice(CORE_PREFIX.length)) {
    const digit = BASE62_ALPHABET.indexOf(c);
    if (digit < 0) return undefined;
    value = value * 62n + BigInt(digit);
  }
  return value;
}

function coreId(value: bigint): string {
  let digits = '';
  let rest = value;
  for (let i = 0; i < CORE_DIGITS; i++) {
    digits = BASE62_ALPHABET[Number(rest % 62n)]! + digits;
    rest /= 62n;
  }
  return CORE_PREFIX + digits;
}
