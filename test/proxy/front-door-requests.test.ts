// Issue 34 item 1 (decisions/061): which requests the proxy's front door reads itself. Anything it
// does not read goes to node's http server, so what it reads must be exactly what needs no judgement
// of node's: a bodyless method, HTTP/1.1, a visible-ASCII path, well-formed fields, one Host.
import { describe, expect, it } from 'vitest';
import { requestOf } from '../../proxy/front-door.ts';

const head = (line: string, ...fields: string[]) => [line, 'Host: proxy', ...fields].join('\r\n');

describe("the requests the proxy's front door reads itself", () => {
  it('reads a status query and a HEAD, their fields as sent', () => {
    const read = requestOf(
      head('GET /v1/videos/task_1?x=1 HTTP/1.1', 'Authorization: Bearer sk-a'),
    );
    expect(read?.request).toMatchObject({
      method: 'GET',
      url: '/v1/videos/task_1?x=1',
      rawHeaders: ['Host', 'proxy', 'Authorization', 'Bearer sk-a'],
      body: undefined,
    });
    expect(read?.request.headers.authorization).toBe('Bearer sk-a');
    expect(read?.close).toBe(false);
    expect(requestOf(head('HEAD /v1/videos/task_1/content HTTP/1.1'))?.request.method).toBe('HEAD');
    expect(requestOf(head('GET / HTTP/1.1', 'Connection: close'))?.close).toBe(true);
  });

  it.each([
    ['a method with a body', head('POST /v1/videos HTTP/1.1')],
    ['a lower-case method', head('get /v1/models HTTP/1.1')],
    ['HTTP/1.0', head('GET /v1/models HTTP/1.0')],
    ['an absolute target', head('GET http://x/v1/models HTTP/1.1')],
    ['a target with a bare LF', head('GET /v1/a\nX-Injected:1 HTTP/1.1')],
    ['a target with a control byte', head('GET /v1/a\x01b HTTP/1.1')],
    ['a target with DEL', head('GET /v1/a\x7fb HTTP/1.1')],
    ['a target with a byte above ASCII', head('GET /v1/a\xe9 HTTP/1.1')],
    ['a framed body', head('GET /v1/models HTTP/1.1', 'Content-Length: 0')],
    ['a chunked body', head('GET /v1/models HTTP/1.1', 'Transfer-Encoding: chunked')],
    ['Expect', head('GET /v1/models HTTP/1.1', 'Expect: 100-continue')],
    ['Upgrade', head('GET /v1/models HTTP/1.1', 'Upgrade: websocket')],
    ['two Hosts', head('GET /v1/models HTTP/1.1', 'host: other')],
    ['no Host', 'GET /v1/models HTTP/1.1'],
    ['a folded field', head('GET /v1/models HTTP/1.1', 'X-A: 1', ' 2')],
    ['a field with a bare LF', head('GET /v1/models HTTP/1.1', 'X-A: 1\nX-B: 2')],
    ['a space before the colon', head('GET /v1/models HTTP/1.1', 'X-A : 1')],
  ])('leaves %s to node', (_, text) => {
    expect(requestOf(text)).toBeUndefined();
  });
});
