import { join } from 'pathe';
import { SluiceError } from '../errors/sluice-error.ts';
import type { Host } from '../host/host.ts';
import { jsonCodec, yamlCodec } from '../store/codec.ts';
import { parseDataText, readDataText, validateData } from '../store/read-data-file.ts';
import { defaultConfig, SluiceConfigSchema, type SluiceConfig } from './config-schema.ts';
import { checkConfigKeys } from './unknown-keys.ts';

export const CONFIG_FILES = ['sluice.config.yaml', 'sluice.config.yml', 'sluice.config.json'] as const;

export interface LoadedConfig {
  config: SluiceConfig;
  /** The file it came from, or undefined when the defaults apply. */
  file?: string;
}

/** Finds and validates the project's config; a broken file is a one-line CONFIG_* error (exit 2). */
export async function loadConfig(host: Host, projectRoot: string): Promise<LoadedConfig> {
  for (const name of CONFIG_FILES) {
    const path = join(projectRoot, name);
    if ((await host.stat(path)) === null) continue;
    let raw: unknown;
    try {
      const text = await readDataText(host, path, { display: name });
      if (text.trim() === '') return { config: defaultConfig(), file: path };
      raw = parseDataText(text, name.endsWith('.json') ? jsonCodec : yamlCodec, name);
    } catch (error) {
      // Too large or missing stay what they are; bytes that are not UTF-8 are a malformed config like bad syntax.
      if (!(error instanceof SluiceError) || error.code !== 'STATE_CORRUPT') throw error;
      // Same message, but as a configuration error.
      throw new SluiceError('CONFIG_MALFORMED', { file: error.file ?? name, field: error.field, message: error.detail, cause: error });
    }
    checkConfigKeys(raw, Object.keys(SluiceConfigSchema.entries), name);
    return { config: validateData(SluiceConfigSchema, raw ?? {}, name, 'CONFIG_INVALID'), file: path };
  }
  return { config: defaultConfig() };
}
