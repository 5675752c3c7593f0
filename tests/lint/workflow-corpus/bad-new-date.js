export const meta = { name: 'stamped', description: 'Stamps its report' }
const SCHEMA = { type: 'object', properties: { status: { enum: ['OK', 'FAILED'] } } }
const r = await agent('Audit the cron jobs; write the audit to .stamped-reports/cron.md.', { schema: SCHEMA })
return { status: r.status, at: new Date().toISOString() }
