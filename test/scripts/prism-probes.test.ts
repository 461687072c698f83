import { describe, expect, it } from 'vitest';
import { PROBES } from '../../scripts/prism-probes.ts';
import { OPERATIONS } from '../../src/generated/routes.ts';

/** IDs as earlier probes save them: a task ID, or the temporary address a completed task answered. */
const ids = new Proxy<Record<string, string>>(
  {},
  {
    get: (_, name) => (String(name).endsWith('.url') ? '/__artifacts/task_a.mp4?sig=1' : 'task_a'),
  },
);
const pattern = (template: string) =>
  new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/?]+')}(\\?.*)?$`);

describe("the Prism review's requests (scripts/prism-probes*.ts)", () => {
  it("send each operation's method to a path of its template (the generated route table)", () => {
    for (const probe of PROBES) {
      const { method, template } = OPERATIONS[probe.operationId];
      const path = typeof probe.path === 'function' ? probe.path(ids) : probe.path;
      expect(`${probe.method} ${path}`, probe.name).toMatch(pattern(`${method} ${template}`));
    }
  });
});
