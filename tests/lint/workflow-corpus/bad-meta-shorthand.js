export const meta = { name, description: 'Uses a variable for its name' }
var name = 'shorthand'
const SCHEMA = { type: 'object', properties: { status: { enum: ['OK', 'FAILED'] } } }
const r = await agent('List the feature flags; write them to .shorthand-reports/flags.md.', { schema: SCHEMA })
return { status: r.status }
