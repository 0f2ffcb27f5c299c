declare const __SLUICE_VERSION__: string | undefined;

/** sluice's version: injected by the bundle; read from package.json when running from source (tsx, Deno). */
export const sluiceVersion: string =
  typeof __SLUICE_VERSION__ === 'string'
    ? __SLUICE_VERSION__
    : ((await import('../package.json', { with: { type: 'json' } })) as { default: { version: string } }).default.version;
