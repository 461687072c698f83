import { serviceContract } from '../../src/spec/index.ts';
import type { RunContext } from '../run-context.ts';
import { SECOND_FAMILY } from '../target.ts';
import { CHECKS } from './definitions.ts';
import { evidenceOf, is2xx, is4xx, isJsonBody } from './evidence.ts';

const { validators } = serviceContract();
/** A well-formed task ID that no deployment has issued. */
export const UNKNOWN_TASK_ID = 'task_videotaskContractUnknown000000';

/** `/v1/models`: answers, lists the target model (§9 step 3), and the second family's visibility (reported). */
export async function probeCatalog({
  recorder,
  verdicts: v,
  target,
  notes,
}: RunContext): Promise<void> {
  const exchange = await recorder.send('catalog', 'GET', '/v1/models');
  const ev = evidenceOf(recorder, exchange);
  const ids = Array.isArray((exchange.json as { data?: unknown })?.data)
    ? ((exchange.json as { data: { id?: unknown }[] }).data
        .map((m) => m?.id)
        .filter((id) => typeof id === 'string') as string[])
    : undefined;
  v.expect(
    CHECKS.catalogListsModel,
    is2xx(exchange) && ids !== undefined && ids.includes(target.model),
    ids === undefined
      ? `the catalog answered HTTP ${exchange.status} without a model list`
      : `the catalog does not list ${target.model} for this key (it lists ${ids.slice(0, 8).join(', ') || 'nothing'})`,
    ev,
  );
  if (is2xx(exchange)) {
    const shape = validators
      .response('listModels', 200)!
      .body('application/json')!
      .validateFull(exchange.json);
    v.expect(
      CHECKS.catalogShape,
      shape.valid,
      `the catalog differs from the gateway's shape: ${shape.errors.join('; ')}`,
      ev,
    );
  }
  if (ids !== undefined) {
    const visible = SECOND_FAMILY.filter((m) => ids.includes(m));
    notes.push(
      visible.length === 0
        ? `second family: none of ${SECOND_FAMILY.join(', ')} is listed for this key`
        : `second family: ${visible.join(', ')} listed for this key${visible.length < SECOND_FAMILY.length ? ` (not ${SECOND_FAMILY.filter((m) => !visible.includes(m)).join(', ')})` : ''}`,
    );
  }
}

const QUERY_ROUTES = [
  { label: 'status (OpenAI form)', path: (id: string) => `/v1/videos/${id}`, content: false },
  {
    label: 'status (wrapper)',
    path: (id: string) => `/v1/video/generations/${id}`,
    content: false,
  },
  { label: 'content', path: (id: string) => `/v1/videos/${id}/content`, content: true },
] as const;

/** A missing or invalid key on every endpoint that creates nothing: a 4xx (§5, §7), JSON (assumed; §4.4 for content). */
export async function probeAuthentication({ recorder, verdicts: v }: RunContext): Promise<void> {
  const routes = [
    ...QUERY_ROUTES.map((r) => ({ ...r, path: r.path(UNKNOWN_TASK_ID) })),
    { label: 'catalog', path: '/v1/models', content: false },
  ];
  for (const as of ['none', 'invalid'] as const) {
    for (const route of routes) {
      const exchange = await recorder.send(`auth ${as} ${route.label}`, 'GET', route.path, { as });
      const ev = evidenceOf(recorder, exchange);
      v.expect(
        CHECKS.authRequired,
        is4xx(exchange),
        `${route.label} with ${as === 'none' ? 'no' : 'an invalid'} key answered HTTP ${exchange.status}`,
        ev,
      );
      if (is4xx(exchange))
        v.expect(
          route.content ? CHECKS.contentJsonErrors : CHECKS.authJsonError,
          isJsonBody(exchange),
          `${route.label} refused the key with a non-JSON body (${exchange.contentType || 'no content type'})`,
          ev,
        );
      if (is4xx(exchange) && isJsonBody(exchange))
        judgeErrorEnvelope({ recorder, verdicts: v }, exchange, 401);
    }
  }
}

/** An unknown task ID on every query route: an error (§5), JSON on content (§4.4). */
export async function probeUnknownTask({ recorder, verdicts: v }: RunContext): Promise<void> {
  for (const route of QUERY_ROUTES) {
    const exchange = await recorder.send(
      `unknown task ${route.label}`,
      'GET',
      route.path(UNKNOWN_TASK_ID),
    );
    const ev = evidenceOf(recorder, exchange, UNKNOWN_TASK_ID);
    v.expect(
      CHECKS.unknownTaskError,
      exchange.status >= 400,
      `${route.label} of an unknown task answered HTTP ${exchange.status}`,
      ev,
    );
    if (route.content)
      v.expect(
        CHECKS.unknownContentJson,
        exchange.status >= 400 && isJsonBody(exchange),
        `content of an unknown task answered HTTP ${exchange.status} with ${isJsonBody(exchange) ? 'JSON' : `a non-JSON body (${exchange.contentType || 'no content type'})`}`,
        ev,
      );
    else if (exchange.status >= 400)
      v.expect(
        CHECKS.authJsonError,
        isJsonBody(exchange),
        `${route.label} of an unknown task answered a non-JSON error`,
        ev,
      );
    if (exchange.status >= 400 && isJsonBody(exchange))
      judgeErrorEnvelope({ recorder, verdicts: v }, exchange, route.content ? 404 : [400, 404]);
  }
}

/** The error's envelope and status code: both not shown by the document, so assumptions. */
export function judgeErrorEnvelope(
  { recorder, verdicts: v }: Pick<RunContext, 'recorder' | 'verdicts'>,
  exchange: Parameters<typeof evidenceOf>[1],
  expectedStatus: number | number[],
): void {
  const ev = evidenceOf(recorder, exchange);
  const envelope = validators.schema('ErrorBody').validateFull(exchange.json);
  v.expect(
    CHECKS.errorEnvelope,
    envelope.valid,
    "the error body has neither of the gateway's envelopes",
    ev,
  );
  const wanted = Array.isArray(expectedStatus) ? expectedStatus : [expectedStatus];
  v.expect(
    CHECKS.errorStatusCode,
    wanted.includes(exchange.status),
    `HTTP ${exchange.status} where the gateway answers ${wanted.join(' or ')}`,
    ev,
  );
}
