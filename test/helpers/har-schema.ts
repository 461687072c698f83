/**
 * The structure HTTP Archive 1.2 requires (http://www.softwareishard.com/blog/har-12-spec/), as a JSON
 * Schema: every object and field the specification marks as required, with its type. Optional fields
 * are checked for their type when present.
 */
const nameValues = {
  type: 'array',
  items: {
    type: 'object',
    required: ['name', 'value'],
    properties: { name: { type: 'string' }, value: { type: 'string' } },
  },
} as const;

const size = { type: 'integer', minimum: -1 } as const;
const timing = { type: 'number', minimum: -1 } as const;

export const HAR_1_2 = {
  type: 'object',
  required: ['log'],
  properties: {
    log: {
      type: 'object',
      required: ['version', 'creator', 'entries'],
      properties: {
        version: { const: '1.2' },
        creator: {
          type: 'object',
          required: ['name', 'version'],
          properties: { name: { type: 'string' }, version: { type: 'string' } },
        },
        comment: { type: 'string' },
        entries: {
          type: 'array',
          items: {
            type: 'object',
            required: ['startedDateTime', 'time', 'request', 'response', 'cache', 'timings'],
            properties: {
              startedDateTime: { type: 'string', format: 'date-time' },
              time: { type: 'number', minimum: 0 },
              request: {
                type: 'object',
                required: [
                  'method',
                  'url',
                  'httpVersion',
                  'cookies',
                  'headers',
                  'queryString',
                  'headersSize',
                  'bodySize',
                ],
                properties: {
                  method: { type: 'string' },
                  url: { type: 'string', format: 'uri' },
                  httpVersion: { type: 'string' },
                  cookies: { type: 'array' },
                  headers: nameValues,
                  queryString: nameValues,
                  postData: {
                    type: 'object',
                    required: ['mimeType'],
                    properties: { mimeType: { type: 'string' }, text: { type: 'string' } },
                  },
                  headersSize: size,
                  bodySize: size,
                },
              },
              response: {
                type: 'object',
                required: [
                  'status',
                  'statusText',
                  'httpVersion',
                  'cookies',
                  'headers',
                  'content',
                  'redirectURL',
                  'headersSize',
                  'bodySize',
                ],
                properties: {
                  status: { type: 'integer' },
                  statusText: { type: 'string' },
                  httpVersion: { type: 'string' },
                  cookies: { type: 'array' },
                  headers: nameValues,
                  content: {
                    type: 'object',
                    required: ['size', 'mimeType'],
                    properties: {
                      size: { type: 'integer' },
                      mimeType: { type: 'string' },
                      text: { type: 'string' },
                      encoding: { type: 'string' },
                    },
                  },
                  redirectURL: { type: 'string' },
                  headersSize: size,
                  bodySize: size,
                },
              },
              cache: { type: 'object' },
              timings: {
                type: 'object',
                required: ['send', 'wait', 'receive'],
                properties: {
                  blocked: timing,
                  dns: timing,
                  connect: timing,
                  ssl: timing,
                  send: { type: 'number', minimum: 0 },
                  wait: { type: 'number', minimum: 0 },
                  receive: { type: 'number', minimum: 0 },
                },
              },
            },
          },
        },
      },
    },
  },
} as const;
