/**
 * The mark the project's own tools put on their requests (decisions/045): `X-Videotask-Tool: <tool>`.
 * The mock's client verdicts judge a client's own doings; what a tool sent (the contract suite's
 * deliberate bad inputs, a monitor's rounds, the reference client's automatic retries) is counted
 * apart. A header any client can send: docs/client-verdicts.md says what the mock can tell of a forged
 * one and what it cannot.
 */
export const TOOL_HEADER = 'X-Videotask-Tool';

/**
 * The tools, in a fixed order (the mock's observations carry a tool's place here). `client-retry`:
 * the reference client repeating a request after a temporary failure (§7), not a tool of its own.
 */
export const TOOLS = [
  'contract',
  'learn',
  'drift',
  'verify-family',
  'monitor',
  'client-retry',
] as const;

export type Tool = (typeof TOOLS)[number];

/** The header that marks a tool's request, as a headers object (lower-case name). */
export function toolHeaders(tool: Tool): Record<string, string> {
  return { [TOOL_HEADER.toLowerCase()]: tool };
}

const PLACES = new Map<string, number>(TOOLS.map((tool, i) => [tool, i + 1]));

/** A tool's place in `TOOLS` plus one, from a header's value; 0 when it names no tool. */
export function toolNumber(value: string | undefined): number {
  return value === undefined ? 0 : (PLACES.get(value.trim().toLowerCase()) ?? 0);
}
