export { loadCached, saveCodeCache, WRAPPER_START, type CachedModule } from './code-cache.ts';
