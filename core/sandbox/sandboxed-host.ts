import type { Host } from '../host/host.ts';
import type { SandboxPolicy } from './sandbox-policy.ts';

/** The same host, except that every process it starts runs in the OS sandbox with `policy`. */
export function sandboxedHost(host: Host, policy: SandboxPolicy): Host {
  const spawn: Host['spawn'] = (o) => host.spawn({ ...o, sandbox: policy });
  return new Proxy(host, {
    get(target, key, receiver) {
      if (key === 'spawn') return spawn;
      return Reflect.get(target, key, receiver);
    },
  });
}
