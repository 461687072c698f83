import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import openapi from '../../src/generated/openapi.json' with { type: 'json' };
import control from '../../src/generated/mock-control.json' with { type: 'json' };
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

describe('docs/contracts.md on the Prism review', () => {
  it('counts the operations the requests probe, of each spec, as they are', () => {
    const probed = new Set<string>(PROBES.map((probe) => probe.operationId));
    const claim = (file: string, operations: readonly string[]): string => {
      const missed = operations.filter((id) => !probed.has(id));
      if (missed.length === 0) return `all ${operations.length} operations of \`${file}\``;
      const not = missed.map((id) => `\`${id}\``).join(', ');
      return `${operations.length - missed.length} of the ${operations.length} of \`${file}\` (not ${not})`;
    };
    const text = readFileSync(new URL('../../docs/contracts.md', import.meta.url), 'utf8');
    expect(text.replace(/\s+/g, ' ')).toContain(
      `${claim('openapi.yaml', operationIds(openapi))} and ${claim('mock-control.yaml', operationIds(control))}`,
    );
  });
});

function operationIds(document: { paths: Record<string, Record<string, unknown>> }): string[] {
  return Object.values(document.paths).flatMap((item) =>
    Object.values(item).flatMap((operation) => {
      const id = (operation as { operationId?: unknown } | null)?.operationId;
      return typeof id === 'string' ? [id] : [];
    }),
  );
}
