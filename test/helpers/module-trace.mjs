// `node --import ./module-trace.mjs`: registers module-trace-hooks.mjs when SLUICE_TEST_MODULE_TRACE names a file.
import { register } from 'node:module';

const file = process.env.SLUICE_TEST_MODULE_TRACE;
if (file) register('./module-trace-hooks.mjs', import.meta.url, { data: { file } });
