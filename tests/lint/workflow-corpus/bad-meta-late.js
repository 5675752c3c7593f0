const REPORTS = '.late-reports'
export const meta = { name: 'late', description: 'Declares meta after a constant' }
const SCHEMA = { type: 'object', properties: { status: { enum: ['OK', 'FAILED'] } } }
const r = await agent(`Check the README links; write broken ones to ${REPORTS}/links.md.`, { schema: SCHEMA })
return { status: r.status }
