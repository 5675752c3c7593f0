export let meta = { name: 'mutable', description: 'Declares meta with let' }
const SCHEMA = { type: 'object', properties: { status: { enum: ['OK', 'FAILED'] } } }
const r = await agent('Check the licences; write the list to .mutable-reports/licences.md.', { schema: SCHEMA })
return { status: r.status }
