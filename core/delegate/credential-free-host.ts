import type { Host } from '../host/host.ts';
import { isSluiceCredential, withoutSluiceCredentials } from '../secrets/sluice-credentials.ts';

/**
 * The host a delegate backend gets: the same host, except that sluice's credentials are invisible to
 * it and absent from every process it starts (the environment is passed whole, without them, instead
 * of inherited). The agent cannot read SLUICE_COMMIT_GRANT and authorize its own commits with it.
 */
export function credentialFreeHost(host: Host): Host {
  const env = (name: string) => (isSluiceCredential(name) ? undefined : host.env(name));
  const envAll = () => withoutSluiceCredentials(host.envAll());
  const spawn: Host['spawn'] = (o) =>
    host.spawn({ ...o, replaceEnv: true, env: withoutSluiceCredentials({ ...(o.replaceEnv ? {} : host.envAll()), ...o.env }) });
  return new Proxy(host, {
    get(target, key, receiver) {
      if (key === 'env') return env;
      if (key === 'envAll') return envAll;
      if (key === 'spawn') return spawn;
      return Reflect.get(target, key, receiver);
    },
  });
}
