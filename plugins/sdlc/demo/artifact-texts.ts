/**
 * Artifact bodies for the demo project, "Claims Intake API": a service that takes health insurance
 * claims from clinics. Written to pass the gates honestly: no placeholder markers, and the phrases
 * the soc2, hipaa and gdpr compliance checks look for appear where a real team would write them.
 */
export const DEMO_PROJECT = 'Claims Intake API';
export const DEMO_OWNER = 'Dana Whitfield (Product Owner)';

export const ARTIFACT_TEXTS: Record<string, string> = {
  'constitution.md': `# Constitution

## Principles
1. Every claim is traceable from submission to adjudication hand-off.
2. Correctness over speed: a rejected claim is cheaper than a wrong payout.
3. Changes ship through the pipeline only; nobody deploys from a laptop.

## Decision rights
- Product scope: ${DEMO_OWNER}
- Architecture: Priya Natarajan (Tech Lead)
- Security sign-off: Marcus Lee (CISO office)
`,
  'problem-statement.md': `# Problem Statement

Clinics submit 42,000 claims a month by fax and e-mail. Intake staff re-key each claim into the
adjudication system, which takes 11 minutes per claim and produces a 6.8% keying error rate
(Q3 audit). Errors cost on average $38 each in rework and delay payment to clinics by 9 days.

## Who is affected
- Clinic billing staff, who wait for payment.
- Intake staff, who spend 7,700 hours a month re-keying.

## What is not being built
Adjudication rules, payments and the clinic portal stay as they are.
`,
  'success-criteria.md': `# Success Criteria

| Dimension | Pass threshold | Source |
|---|---|---|
| Keying error rate | below 1.0% | monthly QA sample of 400 claims |
| Intake time per claim | under 2 minutes p90 | intake service metrics |
| Clinic payment delay | under 4 days median | finance ledger export |
`,
  'constraints.md': `# Constraints

- Budget: $180,000
- Timeline: 14 weeks
- Team size: 4

Claims carry protected health information (diagnosis codes, member ids) and personal data of
patients in the EU branch, so HIPAA and GDPR both apply. Hosting stays in the existing Azure tenant.
`,
  'requirements.md': `# Requirements

- REQ-001 Clinics submit claims as FHIR Claim resources over HTTPS; authentication uses OAuth2 client credentials per clinic.
- REQ-002 Authorization is per clinic: a clinic reads and writes only its own claims (access control enforced in the API, not the UI).
- REQ-003 Every read and write of a claim is written to an append-only audit log with actor, time and claim id.
- REQ-004 Claims are stored with encryption at rest; only the minimum necessary fields are passed to adjudication.
- REQ-005 The lawful basis for processing EU patients' data is the contract with the insurer (GDPR Art. 6(1)(b)).
- REQ-006 A data subject may request access, rectification, erasure and portability of their claim data; requests complete within 30 days.
`,
  'non-functional-requirements.md': `# Non-Functional Requirements

| NFR | Threshold | Measurement basis |
|---|---|---|
| Availability | 99.9% monthly | uptime probe every 60 s |
| Intake latency | p95 under 800 ms | API gateway logs |
| Throughput | 50 claims per second sustained | load test in staging |
`,
  'design-doc.md': `# Design

The intake service is a stateless API behind the gateway; claims land in a queue and are validated
by a worker before hand-off to adjudication.

## Security
- Trust boundary: the gateway. Nothing behind it accepts traffic from clinics directly.
- Encryption in transit: TLS 1.2+ everywhere, mutual TLS between gateway and service.
- Encryption at rest: storage and queue use customer-managed keys in Key Vault.

## Personal data
Only claim fields needed for adjudication are kept; raw submissions follow a 90-day retention period.
`,
  'threat-model.md': `# Threat Model

Assets: protected health information in claims, clinic credentials, audit log.

| Threat | Risk | Mitigation | Owner |
|---|---|---|---|
| Clinic A reads clinic B's claims | high | per-clinic authorization checks, tested per endpoint | Priya Natarajan |
| Credential stuffing on token endpoint | medium | rate limits, lockout, alerting | Marcus Lee |
| Audit log tampering | medium | append-only storage, daily hash chain check | Marcus Lee |

Guarded-path map accepted by Marcus Lee.
`,
  'release-notes.md': `# Release Notes: 1.0.0

- Claims intake over FHIR with per-clinic authorization.
- Audit log of every claim access.

## Rollback
Rollback is a redeploy of the previous container image through the pipeline (rehearsed in test:
4 minutes end to end). The database migration is additive, so no data rollback is needed.
`,
  'deployment-checklist.md': `# Deployment Checklist

- [x] Backup of the claims database taken and restore verified in staging
- [x] Feature flag for clinic onboarding off by default
- [x] On-call rota confirmed for launch week
`,
  'incident-response.md': `# Incident Response

1. Page the on-call engineer from the alert; open an incident channel.
2. Contain: revoke affected clinic credentials, block at the gateway.
3. Breach notification: HIPAA requires notice to affected individuals within 60 days; GDPR requires
   notice to the supervisory authority within 72 hours of awareness. The privacy officer owns both.
`,
  'access-revocation-checklist.md': `# Access Revocation Checklist

- [x] Pod accounts removed from Azure AD groups with access to ePHI stores
- [x] Personal access tokens for the repository revoked
- [x] Confirmed against the client's audit trail by Marcus Lee
`,
  'README.md': `# ${DEMO_PROJECT}

Takes health insurance claims from clinics over FHIR and hands validated claims to adjudication.

## Run locally
\`\`\`sh
npm ci
npm run dev   # listens on \${PORT}, default 8080
\`\`\`
`,
  'RUNBOOK.md': `# Runbook

## Deploy
Merge to main; the pipeline deploys to staging, then production after approval.

## Rollback
Re-run the previous release's deploy job.

## Failure: queue backlog over 10,000
Scale the worker to 6 instances; check adjudication availability.
`,
};

/** A short, specific record for artifacts without a hand-written body. */
export function genericArtifactText(name: string, phaseTitle: string, phaseDescription: string): string {
  const title = name
    .replace(/\.md$/, '')
    .replace(/[-_]/g, ' ')
    .replace(/\b\w/g, (c) => c.toUpperCase());
  return `# ${title}

Project: ${DEMO_PROJECT}. ${phaseTitle}.

## Purpose
${phaseDescription}

## Record
Prepared by Priya Natarajan (Tech Lead), reviewed with ${DEMO_OWNER}.
All items in this record were walked through in the phase review and accepted.
`;
}
