import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import * as v from 'valibot';
import { createKernel, createMemoryHost, errorCodeEntry, SluiceError, type Codec, type ErrorCode, type Host, type Kernel } from '../../core/index.ts';
import { builtinPlugins } from '../../plugins/cli/builtin-plugins.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';
import { fuzzInputs, scaled, specialShapes, type Format, type SpecialShape } from './fuzz-inputs.ts';

/**
 * The property every file reader must have, checked over thousands of inputs: it returns a value
 * that passes its schema, or throws a SluiceError with a catalogued code whose one-line message
 * names the file. Never anything else, never a hang, never unbounded memory, never a polluted
 * Object.prototype.
 */
export interface ReaderIO {
  host: Host;
  /** Project root the file lives in. */
  root: string;
  /** Absolute path of the fuzzed file. */
  path: string;
  /** A kernel with every built-in plugin over `host` and `root`, made once per host. */
  kernel(): Promise<Kernel>;
}

export interface ReaderSpec {
  /** The file as errors must name it (relative to the project root), e.g. `.sdlc/state.yaml`. */
  file: string;
  format: Format;
  /** Valid files: the seeds of mutation. */
  seeds: readonly string[];
  vocabulary?: readonly string[];
  /** Other files the reader needs, relative to the root (the frozen registry for state.yaml...). */
  fixtures?: Record<string, string>;
  /** Error codes this reader may throw for bad content. */
  codes: readonly ErrorCode[];
  /** Reads the file at `io.path`; what it returns is checked by `valid`. */
  read(io: ReaderIO): Promise<unknown>;
  /** The returned value meets the reader's contract (usually: `v.is(Schema, value)`). */
  valid(value: unknown): boolean;
  /**
   * State files: what was read must survive being written back (the store writes the value it
   * validated with this codec and schema), or the next run finds a file sluice itself broke.
   */
  rewrite?: { codec: Codec; schema: v.GenericSchema };
  /** Part of the result compared between a seed and its BOM/CRLF variants (default: all of it). */
  view?(value: unknown): unknown;
  /** Messages of this reader that need no field: they are about the whole file, or name what they mean. */
  fieldless?: RegExp;
  /** Generated inputs go to real files too (readers that use node:fs or bundled assets). */
  real?: boolean;
  /** Markdown frontmatter readers get YAML special shapes inside a frontmatter block. */
  frontmatter?: boolean;
  /** Inputs per run before SLUICE_SOAK (default 1,000). */
  runs?: number;
  seed?: number;
}

/** A reader as the tests and the bench list it. */
export interface NamedReader {
  name: string;
  spec: ReaderSpec;
}

export interface FuzzStats {
  file: string;
  inputs: number;
  accepted: number;
  refused: Partial<Record<ErrorCode, number>>;
  specialShapes: number;
  slowestMs: number;
  heapGrowthMb: number;
  ms: number;
}

/** Generous: a loaded 2-core CI machine; a hang is minutes, not seconds. */
/** A hang catcher, not a speed limit: an input still unanswered after a minute hangs on any machine. */
const PER_INPUT_MS = 60_000;
const MAX_HEAP_GROWTH_MB = 64;

// Real-file reads go through the Node host, whose environment is this process's: no parse cache in the home folder.
process.env.SLUICE_NO_CACHE ??= '1';
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heapMb = () => {
  gc();
  return process.memoryUsage().heapUsed / 1024 / 1024;
};

/** Errors about a file's content name the field (or line), unless the problem is the whole file. */
const FIELD_CODES = /^(STATE_CORRUPT|CONFIG_MALFORMED|\w+_INVALID)$/;
const WHOLE_FILE = new RegExp(
  [
    'file is empty',
    'not valid UTF-8',
    'byte limit',
    // A profile whose top level is a list: the whole file is the wrong shape.
    'expected a map of keys, got a list',
    'Expected (Object|Array) but received',
    'Excessive alias count',
    'Unresolved alias',
    'a cycle',
    'too large to be read exactly',
    'nested more than \\d+ levels',
    'Unexpected end of JSON input',
    'Invalid key: Expected never but received (""|a string \\(0 characters\\))',
  ].join('|'),
);

type Outcome = { ok: true; value: unknown } | { ok: false; error: SluiceError };

/** Runs the reader once and checks the property; throws an AssertionError describing a violation. */
async function readOnce(spec: ReaderSpec, io: ReaderIO, what: string): Promise<Outcome> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`hung: no answer after ${PER_INPUT_MS} ms`)), PER_INPUT_MS);
  });
  let outcome: Outcome;
  try {
    outcome = { ok: true, value: await Promise.race([spec.read(io), timeout]) };
  } catch (error) {
    if (!(error instanceof SluiceError))
      throw new assert.AssertionError({
        message: `${spec.file} (${what}): threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}, not a SluiceError`,
      });
    outcome = { ok: false, error };
  } finally {
    clearTimeout(timer);
  }
  assert.equal(({} as Record<string, unknown>).polluted, undefined, `${spec.file} (${what}): Object.prototype was polluted`);
  if (outcome.ok) {
    assert.ok(
      spec.valid(outcome.value),
      `${spec.file} (${what}): returned a value that does not pass its schema: ${JSON.stringify(outcome.value)?.slice(0, 300)}`,
    );
    assertPlainData(outcome.value, `${spec.file} (${what})`);
    if (spec.rewrite) assertRewritable(spec.rewrite, outcome.value, `${spec.file} (${what})`);
  } else {
    const e = outcome.error;
    assert.ok(errorCodeEntry(e.code) !== undefined, `${spec.file} (${what}): code ${e.code} is not in the catalog`);
    assert.ok(spec.codes.includes(e.code), `${spec.file} (${what}): unexpected ${e.message}`);
    assert.ok(e.message.includes(spec.file), `${spec.file} (${what}): the message does not name the file: ${e.message}`);
    assert.ok(!e.message.includes('\n'), `${spec.file} (${what}): the message is not one line: ${JSON.stringify(e.message)}`);
    if (FIELD_CODES.test(e.code) && !e.field && !spec.fieldless?.test(e.detail))
      assert.match(e.detail, WHOLE_FILE, `${spec.file} (${what}): names no field: ${e.message}`);
  }
  return outcome;
}

/**
 * Every object in a reader's result is a plain object or array: no prototype swapped in by a
 * `__proto__` key, and no Date, Set, Map or bytes made by a YAML tag (a rewrite would change them).
 */
function assertPlainData(value: unknown, where: string, depth = 0): void {
  if (value === null || typeof value !== 'object' || depth > 200) return;
  const proto = Object.getPrototypeOf(value);
  if (Array.isArray(value)) assert.equal(proto, Array.prototype, `${where}: an array with a foreign prototype`);
  else assert.ok(proto === Object.prototype || proto === null, `${where}: a ${proto?.constructor?.name ?? 'foreign'} object, not plain data`);
  for (const child of Object.values(value)) assertPlainData(child, where, depth + 1);
}

/** Written with the state's codec and read back, the value still passes its schema and is unchanged. */
function assertRewritable({ codec, schema }: NonNullable<ReaderSpec['rewrite']>, value: unknown, where: string): void {
  let again: unknown;
  try {
    again = codec.parse(codec.stringify(value));
  } catch (error) {
    assert.fail(`${where}: the value read cannot be written back and read again: ${String(error)}`);
  }
  const result = v.safeParse(schema, again);
  assert.ok(
    result.success,
    `${where}: written back, the value no longer passes its schema: ${result.issues?.[0].message} at ${result.issues && v.getDotPath(result.issues[0])}`,
  );
  assert.deepEqual(result.output, value, `${where}: written back, the value reads differently`);
}

/** A memory host holding the fixtures, reused across inputs; its clock moves on every call so mtimes differ. */
async function memoryIO(spec: ReaderSpec): Promise<{ io: ReaderIO; place(bytes: Uint8Array): Promise<void> }> {
  let tick = Date.parse('2026-01-01T00:00:00Z');
  const root = '/project';
  // No parse cache: `sluice status` would keep one in the real home folder.
  const host = createMemoryHost({
    cwd: root,
    env: { SLUICE_NO_CACHE: '1' },
    now: () => new Date((tick += 1000)),
    files: Object.fromEntries(Object.entries(spec.fixtures ?? {}).map(([p, t]) => [join(root, p), t])),
  });
  const path = join(root, spec.file);
  await host.mkdir(dirname(path));
  return {
    io: withKernel({ host, root, path }),
    async place(bytes) {
      await host.writeAtomic(path, bytes);
    },
  };
}

/** A real folder with the fixtures, for sparse files and readers that use node:fs. */
export async function realIO(
  spec: Pick<ReaderSpec, 'file' | 'fixtures'>,
): Promise<{ io: ReaderIO; place(shape: SpecialShape | Uint8Array): Promise<void>; cleanup(): Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'sluice-fuzz-'));
  for (const [p, text] of Object.entries(spec.fixtures ?? {})) {
    await mkdir(dirname(join(root, p)), { recursive: true });
    await writeFile(join(root, p), text);
  }
  const path = join(root, spec.file);
  await mkdir(dirname(path), { recursive: true });
  return {
    io: withKernel({ host: createNodeHost({ cwd: root }), root, path }),
    async place(shape) {
      if (shape instanceof Uint8Array) return writeFile(path, shape);
      await writeFile(path, 'bytes' in shape ? shape.bytes : shape.head);
      // Costs nothing on disk: the rest of the file is a hole.
      if ('size' in shape) await truncate(path, shape.size);
    },
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

function withKernel(base: Omit<ReaderIO, 'kernel'>): ReaderIO {
  let kernel: Promise<Kernel> | undefined;
  return { ...base, kernel: () => (kernel ??= createKernel({ host: base.host, projectRoot: base.root, plugins: builtinPlugins })) };
}

const show = (bytes: Uint8Array) => JSON.stringify(new TextDecoder().decode(bytes.slice(0, 300)));

/**
 * Feeds one reader its generated inputs (memory host), then every special shape (real files),
 * and checks that BOM and CRLF variants of each seed read the same as the seed.
 */
export async function fuzzReader(spec: ReaderSpec): Promise<FuzzStats> {
  const started = performance.now();
  const stats: FuzzStats = { file: spec.file, inputs: 0, accepted: 0, refused: {}, specialShapes: 0, slowestMs: 0, heapGrowthMb: 0, ms: 0 };
  const count = (o: Outcome, ms: number) => {
    stats.inputs++;
    stats.slowestMs = Math.max(stats.slowestMs, ms);
    if (o.ok) stats.accepted++;
    else stats.refused[o.error.code] = (stats.refused[o.error.code] ?? 0) + 1;
  };
  const heapBefore = heapMb();

  const real = await realIO(spec);
  try {
    const mem = spec.real ? real : await memoryIO(spec);
    for (const [i, seed] of spec.seeds.entries()) {
      await mem.place(new TextEncoder().encode(seed));
      const o = await readOnce(spec, mem.io, `seed ${i}`);
      assert.ok(o.ok, `seed ${i} of ${spec.file} must be valid: ${o.ok ? '' : o.error.message}`);
    }
    await fc.assert(
      fc.asyncProperty(fuzzInputs(spec), async (bytes) => {
        await mem.place(bytes);
        const t = performance.now();
        try {
          count(await readOnce(spec, mem.io, `input ${show(bytes)}`), performance.now() - t);
        } catch (error) {
          if (error instanceof assert.AssertionError) throw error;
          throw new assert.AssertionError({ message: `${spec.file}: input ${show(bytes)}: ${String(error)}` });
        }
      }),
      // Shrinking a failure costs minutes of reads; SLUICE_FUZZ_SHRINK=1 turns it on when hunting one down.
      { seed: spec.seed ?? 7, numRuns: scaled(spec.runs ?? 1000), endOnFailure: process.env.SLUICE_FUZZ_SHRINK !== '1', includeErrorInReport: true },
    );
    for (const [i, seed] of spec.seeds.entries()) {
      for (const shape of specialShapes(spec.format, seed, spec.frontmatter, i > 0)) {
        await real.place(shape);
        const t = performance.now();
        count(await readOnce(spec, real.io, `special shape: ${shape.name}`), performance.now() - t);
        stats.specialShapes++;
      }
      await sameAsSeed(spec, real, seed);
    }
  } finally {
    await real.cleanup();
  }
  stats.heapGrowthMb = Math.round((heapMb() - heapBefore) * 10) / 10;
  assert.ok(stats.heapGrowthMb < MAX_HEAP_GROWTH_MB, `${spec.file}: the heap grew by ${stats.heapGrowthMb} MB over the run`);
  stats.ms = Math.round(performance.now() - started);
  return stats;
}

/** A BOM, CRLF line ends or both change nothing about what a valid file means. */
async function sameAsSeed(spec: ReaderSpec, real: Awaited<ReturnType<typeof realIO>>, seed: string): Promise<void> {
  const view = spec.view ?? ((v: unknown) => v);
  const enc = new TextEncoder();
  await real.place(enc.encode(seed));
  const base = await readOnce(spec, real.io, 'seed');
  assert.ok(base.ok);
  for (const [name, text] of [
    ['BOM', `\uFEFF${seed}`],
    ['CRLF', seed.replace(/\r?\n/g, '\r\n')],
  ]) {
    await real.place(enc.encode(text));
    const o = await readOnce(spec, real.io, `${name} seed`);
    assert.ok(o.ok, `${spec.file}: the seed with a ${name} is refused: ${o.ok ? '' : o.error.message}`);
    assert.deepEqual(normalizeEol(view(o.value)), normalizeEol(view(base.value)), `${spec.file}: the seed with a ${name} reads differently`);
  }
}

/** Multi-line strings inside a value keep their CRLF; compare them as lines. */
function normalizeEol(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value ?? null, (_k, v: unknown) => (typeof v === 'string' ? v.replace(/\r\n/g, '\n') : v)));
}

/** One TAP comment line with a reader's counts, for the CI log and the bench. */
export function describeStats(s: FuzzStats): string {
  const refused = Object.entries(s.refused)
    .map(([code, n]) => `${code} ${n}`)
    .join(', ');
  return `${s.file}: ${s.inputs} inputs (${s.specialShapes} special shapes), ${s.accepted} accepted, refused: ${refused || 'none'}; slowest ${Math.round(s.slowestMs)} ms, heap +${s.heapGrowthMb} MB, ${s.ms} ms`;
}
