/**
 * A machine written as data: named steps, each with what it does and which step follows on each of its
 * outcomes, walked by one small driver. The steps keep their own state (tune writes it to disk after
 * every step), so the driver holds nothing a crash could lose: where to start again is the caller's
 * business, read from that state.
 */

/** The name that ends a walk; no step may take it. */
export const END = 'end';
export type End = typeof END;

export interface Step<C, O extends string, N extends string> {
  /** One line for people (docs, `sluice plugins`). */
  does: string;
  run(context: C): Promise<O>;
  /** The step that follows each outcome, or END. */
  next: Readonly<Record<O, N | End>>;
}

/** Every step of a machine by name; `step()` keeps each step's outcomes and routes in step. */
export type StepTable<C, N extends string> = { readonly [K in N]: Step<C, string, N> };

/** Declares one step; its `next` must route every outcome `run` can return. */
export const step = <C, O extends string, N extends string>(s: Step<C, O, N>): Step<C, string, N> => s as Step<C, string, N>;

/**
 * Walks `table` from `start` until a step routes to END. `beforeStep` runs before every step and
 * before ending (tune throws there when interrupted). An outcome the table does not route is a bug
 * in the table, reported with both names.
 */
export async function walkSteps<C, N extends string>(
  table: StepTable<C, N>,
  start: N | End,
  context: C,
  beforeStep: (name: N | End) => void = () => {},
): Promise<void> {
  let name: N | End = start;
  for (;;) {
    beforeStep(name);
    if (name === END) return;
    const current: Step<C, string, N> = table[name];
    const outcome = await current.run(context);
    const next: N | End | undefined = Object.hasOwn(current.next, outcome) ? current.next[outcome] : undefined;
    if (next === undefined) throw new Error(`step ${name} ended with "${outcome}", which its table does not route`);
    name = next;
  }
}

/**
 * What is wrong with a table, for its tests: a route to a step that does not exist, a step named END,
 * an entry point that is not a step, a step no entry point reaches, a step from which END cannot be reached. Empty when sound.
 */
export function tableProblems<C, N extends string>(table: StepTable<C, N>, entries: readonly (N | End)[]): string[] {
  const names = Object.keys(table) as N[];
  const problems: string[] = [];
  if ((names as string[]).includes(END)) problems.push(`a step is named "${END}"`);
  for (const n of names)
    for (const [outcome, to] of Object.entries<string>(table[n].next))
      if (to !== END && !(names as string[]).includes(to)) problems.push(`${n}: outcome "${outcome}" leads to undeclared step "${to}"`);
  for (const e of entries) if (e !== END && !(names as string[]).includes(e)) problems.push(`entry point "${e}" is not a step`);
  const reached = new Set<string>();
  const queue: string[] = entries.filter((e) => e !== END);
  while (queue.length) {
    const n = queue.pop()!;
    if (reached.has(n) || !(names as string[]).includes(n)) continue;
    reached.add(n);
    queue.push(...Object.values<string>(table[n as N].next).filter((to) => to !== END));
  }
  for (const n of names) if (!reached.has(n)) problems.push(`${n}: no entry point reaches it`);
  const ends = new Set<string>([END]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const n of names)
      if (!ends.has(n) && Object.values<string>(table[n].next).some((to) => ends.has(to))) {
        ends.add(n);
        grew = true;
      }
  }
  for (const n of names) if (!ends.has(n)) problems.push(`${n}: never reaches ${END}`);
  return problems;
}
