// A script that forgot its meta block.
const SCHEMA = { type: 'object', properties: { status: { enum: ['OK', 'FAILED'] } } }
const r = await agent('Check the CI configuration; write your notes to .ci-reports/ci.md.', { schema: SCHEMA })
return { status: r.status }
