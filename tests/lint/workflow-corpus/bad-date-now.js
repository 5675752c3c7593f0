export const meta = { name: 'timed', description: 'Times itself' }
const started = Date.now()
const SCHEMA = { type: 'object', properties: { status: { enum: ['OK', 'FAILED'] } } }
const r = await agent('Run the slow tests; write the results to .timed-reports/slow.md.', { schema: SCHEMA })
return { status: r.status, startedAt: started }
