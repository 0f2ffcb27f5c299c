import type { HandoffFields } from './lenient-handoff.ts';
import type { SessionHandoff } from './session-handoff-schema.ts';

/** `sluice handoff --json`: what the next session needs, derived from the handoff file. */
export interface HandoffSummary {
  /** null only when a hook read a file without a valid session_number. */
  session: number | null;
  overallStatus: SessionHandoff['overall_status'] | null;
  lastUpdated: string | null;
  sections: { total: number; complete: number; inProgress: number; blocked: number };
  /** `[SDLC] Session Handoff: 3/8 sections complete, 1 in progress, 0 blocked (session #3)` */
  line: string;
  context: string | null;
  firstAction: { action: string; section?: string; priority?: string; context?: string } | null;
  unresolvedBlockers: { description: string; section?: string }[];
}

const present = (s: string | null | undefined): string | undefined => (s === null || s === undefined || s.trim() === '' ? undefined : s);

/** Pure: the counts and pointers the seed's session-start hook shows (from a valid file, or the valid fields of one). */
export function summarizeHandoff(h: SessionHandoff | HandoffFields): HandoffSummary {
  const count = (status: string) => h.sections.filter((s) => s.status === status).length;
  const sections = { total: h.sections.length, complete: count('complete'), inProgress: count('in_progress'), blocked: count('blocked') };
  const first = h.next_actions?.[0];
  return {
    session: h.session_number ?? null,
    overallStatus: h.overall_status ?? null,
    lastUpdated: h.last_updated ?? null,
    sections,
    line: `[SDLC] Session Handoff: ${sections.complete}/${sections.total} sections complete, ${sections.inProgress} in progress, ${sections.blocked} blocked (session #${h.session_number ?? '?'})`,
    context: present(h.context_for_next_session) ?? null,
    firstAction: first
      ? {
          action: first.action,
          ...(present(first.section) ? { section: first.section! } : {}),
          ...(present(first.priority) ? { priority: first.priority! } : {}),
          ...(present(first.context) ? { context: first.context! } : {}),
        }
      : null,
    unresolvedBlockers: (h.blockers ?? [])
      .filter((b) => !b.resolved)
      .map((b) => ({ description: b.description, ...(present(b.section) ? { section: b.section! } : {}) })),
  };
}

/** The text a person or an agent reads at the start of a session (plain: it also goes into the hook payload). */
export function handoffText(s: HandoffSummary): string {
  const lines = [s.line];
  if (s.context) lines.push(`Context for this session: ${s.context}`);
  if (s.firstAction) {
    const a = s.firstAction;
    const tags = [a.priority, a.section].filter(Boolean).join(', ');
    lines.push(`Start with: ${a.action}${tags ? ` (${tags})` : ''}${a.context ? ` — ${a.context}` : ''}`);
  } else {
    lines.push('Start with: no next action recorded');
  }
  if (s.unresolvedBlockers.length) {
    lines.push(`WARNING: ${s.unresolvedBlockers.length} unresolved blocker${s.unresolvedBlockers.length === 1 ? '' : 's'}:`);
    for (const b of s.unresolvedBlockers) lines.push(`  - ${b.description}${b.section ? ` (${b.section})` : ''}`);
  }
  return lines.join('\n');
}
