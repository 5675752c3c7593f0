export const meta = { name: 'triage', description: 'Triage the issues one label at a time' }
function statusSchema(extra) {
  return {
    type: 'object',
    properties: {
      status: { enum: ['DONE', 'FAILED'] },
      report: { type: 'string', maxLength: 200 },
      ...extra,
    },
    required: ['status', 'report'],
  }
}
const LABELS = ['bug', 'feature']
const counts = {}
for (const label of LABELS) {
  const r = await agent(`Triage the open issues labelled ${label}; write the triage to .triage-reports/${label}.md.`, {
    schema: statusSchema({ triaged: { type: 'integer' } }),
  })
  counts[label] = { status: r.status, triaged: r.triaged, report: r.report }
}
return counts
