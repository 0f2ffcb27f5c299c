/** `sluice tune` flags that give every role (executor, evaluator, improver) to the script backend. */
export const scriptRoles = ['--executor', 'script', '--evaluator', 'script', '--improver', 'script'];

/** scriptRoles, with the self-evaluation that one backend in every role needs allowed: what most tune tests run. */
export const scriptBackends = [...scriptRoles, '--allow-self-evaluation'];
