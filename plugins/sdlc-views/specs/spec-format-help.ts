import { SPEC_RISKS, SPEC_STATUSES } from './spec-backlog-types.ts';

/** What `sluice specs --help` says about the files it reads (the README shows the same format). */
export const SPEC_FORMAT_HELP = `Spec files: specs/NNNN-short-name.md, starting with YAML frontmatter:

  ---
  spec: "0007"          # the number of the file name, quoted (unquoted 0007 is the integer 7)
  name: "short-name"
  status: draft         # ${SPEC_STATUSES.join(' | ')}
  risk: MEDIUM          # ${SPEC_RISKS.join(' | ')}
  channel: web          # optional; counted in byChannel (none: unassigned, —: channel-agnostic)
  ---

Other keys are kept and ignored. A status or risk outside these is counted apart (unknownStatus,
unknownRisk); frontmatter that cannot be read makes the spec invalid. in-flight specs count towards
--wip-cap. A markdown file without frontmatter and not named NNNN-… (a README, an index) is listed
apart and not counted.`;
