// CommonJS in plain Node (>= 20.19 loads ES modules with require()): the same entries, required.
const { createHandlers, createMockService } = require('videotask/mocks');
const { VideoTaskClient } = require('videotask');
const { FileJournal } = require('videotask/node');

const handlers = createHandlers(createMockService({ clock: { mode: 'manual' } }));
console.log(
  JSON.stringify({
    handlers: handlers.length,
    client: typeof VideoTaskClient,
    journal: typeof FileJournal,
  }),
);
