// Module hooks (node:module register) for test/cli/command-plugins.test.ts: every module URL the
// process loads is appended to the file named by SLUICE_TEST_MODULE_TRACE, one per line.
import { appendFileSync } from 'node:fs';

let file;
export function initialize(data) {
  file = data.file;
}

export async function load(url, context, nextLoad) {
  const result = await nextLoad(url, context);
  if (file && url.startsWith('file:')) appendFileSync(file, `${url}\n`);
  return result;
}
