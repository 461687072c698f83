// The API key and model the benchmarks use (built into the mock).
export const apiKey = 'sk-mock-alice';
export const authHeaders = { authorization: `Bearer ${apiKey}` } as const;
export const model = 'video-pro-v1';
