export const meta = {
  name: 'quiet',
  phases: [{ title: 'Scan' }],
}
phase('Scan')
const SCHEMA = { type: 'object', properties: { status: { enum: ['OK', 'FAILED'] } } }
const r = await agent('Scan for dead code; write the findings to .quiet-reports/dead.md.', { schema: SCHEMA, phase: 'Scan' })
return { status: r.status }
