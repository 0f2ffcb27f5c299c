/**
 * What a person signs to anchor a project's journals without a terminal (`sluice anchor --signature`):
 * the project, and each journal with the sequence and hash of its head, one line each, so a signature
 * made for one head (an earlier copy, another project) never anchors another. Signed with
 * `ssh-keygen -Y sign -n sluice-anchor` by a key in the person's own allowed_signers (their config
 * folder, outside every work tree), which an agent cannot sign for.
 */
export const ANCHOR_NAMESPACE = 'sluice-anchor';

export interface StatedJournal {
  file: string;
  seq: number;
  hash: string;
}

export function anchorStatement(project: string, journals: readonly StatedJournal[]): string {
  return ['sluice anchor statement v1', `project: ${project}`, ...journals.map((j) => `journal: ${j.file} sequence: ${j.seq} head: ${j.hash}`), ''].join('\n');
}
