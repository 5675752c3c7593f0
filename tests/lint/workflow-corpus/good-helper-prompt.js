export const meta = { name: 'audit', description: 'Audit the security, the licences and the tests' }

const REPORTS = '.audit-reports'
function promptFor(area, job) {
  return [
    job,
    `Write your complete findings to ${REPORTS}/${area}.md.`,
    'Reply with the status and the number of findings only.',
  ].join('\n\n')
}
const base = { type: 'object', required: ['status'] }
const SCHEMA = {
  ...base,
  properties: { status: { enum: ['CLEAN', 'ISSUES', 'FAILED'] }, findings: { type: 'integer' } },
}
const areas = [
  ['security', 'Audit the code for injection and secrets.'],
  ['licences', 'Audit the dependencies for licence conflicts.'],
]
const out = {}
for (const [area, job] of areas) {
  const r = await agent(promptFor(area, job), { schema: SCHEMA })
  out[area] = r?.status ?? 'FAILED'
}
return out
