import * as Yaml from 'yaml';
import type { YamlLibrary } from './yaml-library.ts';

/** The yaml library as a plain import: what a host gives that loads nothing lazily (in memory, Deno). */
export const plainYaml = (): YamlLibrary => Yaml;
