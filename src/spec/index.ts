/**
 * The service contract's tooling, environment-neutral (`videotask/spec` for the browser; in Node,
 * `./node.ts` adds the spec files): the spec as data, its validators, the lifecycle and the readers
 * of every project extension. The mock and the contract suites use it; the client does not (it reads
 * the little it needs from `src/generated/client-contract.ts`).
 */
import { serviceSpec } from './load-spec.ts';
import { readLifecycle, type Lifecycle } from './lifecycle.ts';
import { SpecValidators } from './validators.ts';

export * from './spec-types.ts';
export * from './load-spec.ts';
export * from './lifecycle.ts';
export * from './validators.ts';
export * from './second-family.ts';
export * from './client-request-id.ts';
export * from './response-conformance.ts';
export * from './error-codes.ts';
export * from './polling.ts';
export * from './client-rules.ts';
export * from './extensions.ts';
export * from './described.ts';

/** A spec's validators and its `x-lifecycle`: what a contract run judges by. */
export interface ServiceContract {
  readonly validators: SpecValidators;
  readonly lifecycle: Lifecycle;
}

let shared: ServiceContract | undefined;

/** The service spec's validators and lifecycle, built once per process and shared. */
export function serviceContract(): ServiceContract {
  shared ??= { validators: new SpecValidators(serviceSpec), lifecycle: readLifecycle(serviceSpec) };
  return shared;
}
