import { ArtifactSigner } from '../../mocks/core/signing/artifacts.ts';
import type { CoreRequest } from '../../mocks/core/http/http-types.ts';
import { deploymentKeys } from '../../mocks/core/signing/secret.ts';
import { hmacSha256 } from '../../mocks/core/signing/sha256.ts';
import {
  createMockService,
  DEFAULT_ARTIFACT_TTL_MS,
  type MockOptions,
  type MockService,
} from '../../mocks/core/service/service.ts';
import type { TaskRecord } from '../../mocks/core/task/task-record.ts';
import {
  ADMIN_TOKEN,
  BUILT_IN_KEYS,
  routeMethods,
  type CallSpec,
  type PreludeTask,
  type Segment,
  type TaskRef,
  type WorldSpec,
} from './arbitraries.ts';
import { coreRequest } from '../helpers/core-client.ts';
import { encodeBody, missingId, mutateId, reshape } from './call-parts.ts';

export const FUZZ_ORIGIN = 'http://fuzz.test';

/** A call made concrete: what goes on the wire (header names lower-case, in order, duplicates kept). */
export interface ResolvedCall {
  readonly method: string;
  /** The request target's path part (may be absolute-form or odd: it is sent as is). */
  readonly path: string;
  readonly query: string;
  readonly headers: readonly (readonly [string, string])[];
  readonly body: Uint8Array | undefined;
}

export function worldOptions(spec: WorldSpec): MockOptions {
  return {
    clock: { mode: 'manual', start: Date.UTC(2026, 10, 22) },
    seed: spec.seed,
    secret: fuzzSecret(spec.seed),
    profile: spec.profile,
    familyBound: spec.familyBound,
    contentRedirect: spec.contentRedirect,
    rateLimit: spec.rateLimit ?? undefined,
    adminToken: spec.adminToken ?? undefined,
    maxBodyBytes: spec.maxBodyBytes,
    failureRate: spec.failureRate,
    tokens: spec.extraTokens,
  };
}

/** The deployment secret of a world: known to the fuzzer, so it can sign artifact addresses. */
export function fuzzSecret(seed: number | string): string {
  return `fuzz-${seed}`;
}

/**
 * A service plus what the fuzzer needs to aim at it: its keys, its tasks by owner, and a signer for
 * artifact addresses (under the key the service derives from its secret).
 */
export class FuzzWorld {
  readonly keys: readonly string[];
  readonly signer: ArtifactSigner;

  constructor(
    readonly service: MockService,
    readonly maxBodyBytes: number,
    readonly adminToken: string | null,
  ) {
    this.keys = [
      ...BUILT_IN_KEYS,
      ...service.tokens
        .list()
        .map((t) => t.key)
        .filter((k) => !(BUILT_IN_KEYS as readonly string[]).includes(k)),
    ];
    const keys = deploymentKeys(fuzzSecret(service.seed), hmacSha256);
    this.signer = new ArtifactSigner(keys.artifact, DEFAULT_ARTIFACT_TTL_MS);
  }

  static create(spec: WorldSpec): FuzzWorld {
    const world = new FuzzWorld(
      createMockService(worldOptions(spec)),
      spec.maxBodyBytes,
      spec.adminToken,
    );
    for (const task of spec.prelude) world.submit(task);
    if (spec.advance > 0) world.service.clock.advance(spec.advance);
    return world;
  }

  /** A plain submission (its answer is not checked here: the fuzzed calls are). */
  submit(task: PreludeTask): void {
    const key = this.keys[task.keyIndex % this.keys.length]!;
    const path =
      task.via === 'generations'
        ? '/v1/video/generations'
        : task.via === 'videos'
          ? '/v1/videos'
          : '/alt-video/api/v3/contents/generations/tasks';
    const body =
      task.via === 'native'
        ? { model: task.model, content: [{ type: 'text', text: 'a kite' }] }
        : { model: task.model, prompt: 'a kite' };
    const headers: Record<string, string> = {};
    if (task.scenario !== null) headers['x-mock-scenario'] = task.scenario;
    this.service.handle(coreRequest('POST', path, { key, headers, body, origin: FUZZ_ORIGIN }));
  }

  /** The health probe run after every batch: it must answer 200. */
  healthRequest(): CoreRequest {
    return coreRequest('GET', '/__mock/health', {
      key: this.adminToken,
      origin: FUZZ_ORIGIN,
      remoteAddress: '127.0.0.1',
    });
  }

  tasks(): TaskRecord[] {
    return [...this.service.store.values()];
  }

  callerUser(call: CallSpec): string | undefined {
    if (call.auth.kind !== 'key') return undefined;
    return this.service.tokens.authenticate(
      `Bearer ${this.keys[call.auth.index % this.keys.length]!}`,
    )?.user;
  }

  resolve(call: CallSpec): ResolvedCall {
    const methods = routeMethods(call.template);
    const method = call.method ?? methods[call.methodIndex % Math.max(1, methods.length)] ?? 'GET';
    const user = this.callerUser(call);
    let artifactQuery: string | undefined;
    let index = 0;
    let path = call.template.replace(/\{(\w+)\}/g, () => {
      const segment: Segment = call.params[index++] ?? { kind: 'text', text: 'x' };
      if (segment.kind === 'text') return segment.text;
      const id = this.taskId(segment.ref, user);
      if (segment.kind === 'task') return mutateId(id, segment.mutation);
      const now = this.service.clock.now();
      const address = new URL(
        this.signer.url(
          FUZZ_ORIGIN,
          id,
          segment.variant === 'expired' ? now - 1000 : now + this.signer.ttlMs,
        ),
      );
      if (segment.variant === 'forged') address.searchParams.set('sig', '0'.repeat(32));
      if (segment.variant !== 'bare') artifactQuery = address.search.slice(1);
      return segment.variant === 'no-ext' ? id : `${id}.mp4`;
    });
    path = reshape(path, call.shape);
    const query = [artifactQuery, call.query].filter((q) => q !== undefined && q !== '').join('&');

    const headers: [string, string][] = [];
    const { auth } = call;
    if (auth.kind === 'key')
      headers.push(['authorization', `${auth.scheme}${this.keys[auth.index % this.keys.length]!}`]);
    else if (auth.kind === 'admin')
      headers.push(['authorization', `Bearer ${this.adminToken ?? ADMIN_TOKEN}`]);
    else if (auth.kind === 'raw') headers.push(['authorization', auth.value]);
    if (call.contentType !== null) headers.push(['content-type', call.contentType]);
    if (call.scenario !== null) headers.push(['x-mock-scenario', call.scenario]);
    for (const [name, value] of call.extraHeaders) headers.push([name, value]);
    return { method, path, query, headers, body: encodeBody(call.body, this.maxBodyBytes) };
  }

  taskId(ref: TaskRef, user: string | undefined): string {
    const all = this.tasks();
    const pool =
      ref.who === 'own'
        ? all.filter((t) => t.owner === user)
        : ref.who === 'other'
          ? all.filter((t) => t.owner !== user)
          : ref.who === 'any'
            ? all
            : [];
    return pool.length === 0 ? missingId(ref.index) : pool[ref.index % pool.length]!.id;
  }
}
