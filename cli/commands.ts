import type { CommandEntry } from './command.ts';

/** The `videotask` commands, in the order the help lists them; each loaded when it runs. */
export const commands: readonly CommandEntry[] = [
  {
    name: 'mock',
    summary: 'Run the simulated service over HTTP (the local mock)',
    load: async () => (await import('./commands/mock.ts')).mockCommand,
  },
  {
    name: 'proxy',
    summary:
      'Stand between clients and a deployment: judge both sides of the traffic, inject faults',
    load: async () => (await import('./commands/proxy.ts')).proxyCommand,
  },
  {
    name: 'submit',
    summary: 'Submit a video task and print its task ID',
    load: async () => (await import('./commands/submit.ts')).submitCommand,
  },
  {
    name: 'status',
    summary: "Show a task's state once",
    load: async () => (await import('./commands/status.ts')).statusCommand,
  },
  {
    name: 'wait',
    summary: 'Wait for a task (or every unfinished task of a journal) to finish',
    load: async () => (await import('./commands/wait.ts')).waitCommand,
  },
  {
    name: 'download',
    summary: "Download a completed task's video to a file",
    load: async () => (await import('./commands/download.ts')).downloadCommand,
  },
  {
    name: 'contract',
    summary: 'Check a deployment (or the mock) against the documented behaviour',
    load: async () => (await import('./commands/contract.ts')).contractCommand,
  },
  {
    name: 'learn',
    summary: "Learn a deployment's profile from a contract run (served by mock --profile FILE)",
    load: async () => (await import('./commands/learn.ts')).learnCommand,
  },
  {
    name: 'drift',
    summary: 'Compare two deployments step by step (e.g. staging and the mock of its profile)',
    load: async () => (await import('./commands/drift.ts')).driftCommand,
  },
  {
    name: 'verify-family',
    summary: 'Verify the second model family end to end (§9 steps 3–5) and write a record',
    load: async () => (await import('./commands/verify-family.ts')).verifyFamilyCommand,
  },
  {
    name: 'monitor',
    summary: 'Monitor auth, catalog and journaled tasks without creating any task',
    load: async () => (await import('./commands/monitor.ts')).monitorCommand,
  },
  {
    name: 'lint-spec',
    summary:
      'Validate spec/openapi.yaml (or a given file) and its x-lifecycle table; --trace: the statement table',
    load: async () => (await import('./commands/lint-spec.ts')).lintSpecCommand,
  },
];
