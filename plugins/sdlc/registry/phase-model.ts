import { SluiceError } from '../../../core/index.ts';
import { phaseKey, type PhaseId } from '../state/phase-id.ts';
import type { PhaseDefinition, PhaseRegistry } from './registry-schema.ts';

/** A validated registry with lookups. "Next" is always by `order`, never by id + 1. */
export interface PhaseModel {
  readonly registry: PhaseRegistry;
  /** Phases sorted by order. */
  readonly phases: readonly PhaseDefinition[];
  get(id: PhaseId): PhaseDefinition | undefined;
  /** The phase, or PHASE_UNKNOWN (exit 2) listing the known ids. */
  require(id: PhaseId, where?: { file?: string; field?: string }): PhaseDefinition;
  next(id: PhaseId): PhaseDefinition | undefined;
  first(): PhaseDefinition;
  ids(): string[];
}

/** Checks what a schema cannot (unique ids, slugs and orders, one terminal phase last) and builds the model. */
export function createPhaseModel(registry: PhaseRegistry, display: string): PhaseModel {
  const phases = [...registry.phases].sort((a, b) => a.order - b.order);
  const invalid = (field: string, message: string) => new SluiceError('REGISTRY_INVALID', { file: display, field, message });
  const seen = { id: new Map<string, number>(), slug: new Map<string, number>(), order: new Map<number, number>() };
  registry.phases.forEach((p, i) => {
    const key = phaseKey(p.id);
    if (seen.id.has(key)) throw invalid(`phases.${i}.id`, `phase id ${key} is used twice (phases ${seen.id.get(key)} and ${i})`);
    if (seen.slug.has(p.slug)) throw invalid(`phases.${i}.slug`, `slug ${p.slug} is used twice`);
    if (seen.order.has(p.order)) throw invalid(`phases.${i}.order`, `order ${p.order} is used twice`);
    seen.id.set(key, i);
    seen.slug.set(p.slug, i);
    seen.order.set(p.order, i);
  });
  const terminals = phases.filter((p) => p.terminal === true);
  if (terminals.length > 1) throw invalid('phases', `only one phase may be terminal, found ${terminals.map((p) => phaseKey(p.id)).join(', ')}`);
  if (terminals.length === 1 && terminals[0] !== phases[phases.length - 1])
    throw invalid('phases', `terminal phase ${phaseKey(terminals[0].id)} must have the highest order`);

  const byId = new Map(phases.map((p) => [phaseKey(p.id), p]));
  const ids = () => phases.map((p) => phaseKey(p.id));
  return {
    registry,
    phases,
    get: (id) => byId.get(phaseKey(id)),
    require(id, where = {}) {
      const phase = byId.get(phaseKey(id));
      if (phase) return phase;
      throw new SluiceError('PHASE_UNKNOWN', { ...where, message: `unknown phase ${JSON.stringify(phaseKey(id))}; phases are ${ids().join(', ')}` });
    },
    next(id) {
      const at = phases.findIndex((p) => phaseKey(p.id) === phaseKey(id));
      return at < 0 || phases[at].terminal ? undefined : phases[at + 1];
    },
    first: () => phases[0],
    ids,
  };
}
