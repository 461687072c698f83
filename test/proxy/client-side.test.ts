// Issue 34 items 3 and 5: the client rules on a proxy's traffic, on the real clock, in windows: a
// proxy that runs for months judges every caller, each window within the caps, the window before kept.
import { describe, expect, it } from 'vitest';
import { ClientSide } from '../../proxy/client-side.ts';
import { InjectionLog } from '../../proxy/injection-log.ts';

const HOUR = 3_600_000;

/** A request without a key (§5), as the proxy hands it to the client judge. */
const keyless = (at: number) => ({
  request: {
    method: 'GET',
    path: '/v1/models',
    query: '',
    headers: {},
    origin: 'http://127.0.0.1:4020',
  },
  operationId: 'listModels',
  status: 401,
  lost: false,
  taskId: undefined,
  told: undefined,
  body: undefined,
  at,
});

describe('the client side of the proxy', () => {
  it('judges in windows: a new one starts afresh and keeps the one before', () => {
    const clients = new ClientSide(() => undefined, {}, HOUR);
    const start = Date.now();
    clients.observe(keyless(start));
    const log = new InjectionLog();
    const first = clients.report({ upstream: 'https://staging.example.com', log });
    expect(first.counts.requests).toBe(1);
    expect(first.verdicts.map((v) => v.rule)).toContain('authorization-header');
    expect(first.proxy.previousWindow).toBeUndefined();

    clients.observe(keyless(start + HOUR + 1));
    const second = clients.report({ upstream: 'https://staging.example.com', log });
    expect(second.counts.requests).toBe(1);
    expect(second.proxy.window.startedAt).toBe(new Date(start + HOUR + 1).toISOString());
    expect(second.proxy.previousWindow?.verdicts.map((v) => v.rule)).toContain(
      'authorization-header',
    );
  });
});
