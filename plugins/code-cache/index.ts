export { loadCached, saveCodeCache, type CachedModule } from './code-cache.ts';
