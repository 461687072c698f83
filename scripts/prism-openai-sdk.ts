/**
 * The openai SDK (the pinned devDependency) as one more client of the Prism review: `videos.create`
 * sends multipart/form-data (what the observed profile accepts), then `videos.retrieve` follows the task.
 *
 *   npx tsx scripts/prism-openai-sdk.ts BASE_URL
 */
import OpenAI from 'openai';

const base = process.argv[2];
if (base === undefined) {
  console.error('usage: npx tsx scripts/prism-openai-sdk.ts BASE_URL');
  process.exit(2);
}
const client = new OpenAI({ apiKey: 'sk-mock-alice', baseURL: `${base}/v1`, maxRetries: 0 });
const created = await client.videos.create({
  model: 'video-pro-v1',
  prompt: 'a kite',
  seconds: '4',
});
let task = created;
for (let i = 0; i < 100 && task.status !== 'completed' && task.status !== 'failed'; i++) {
  await new Promise((resolve) => setTimeout(resolve, 50));
  task = await client.videos.retrieve(created.id);
}
console.log(`${created.id}: ${created.status} → ${task.status}`);
if (task.status !== 'completed') process.exitCode = 1;
