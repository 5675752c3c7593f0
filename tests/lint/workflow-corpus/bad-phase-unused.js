export const meta = {
  name: 'docs',
  description: 'Write and check the docs',
  phases: [{ title: 'Write' }, { title: 'Check' }, { title: 'Publish' }],
}
const SCHEMA = { type: 'object', properties: { status: { enum: ['OK', 'FAILED'] } }, required: ['status'] }
phase('Write')
const w = await agent('Write the API docs into docs/api.md; log what you changed to .docs-reports/write.md.', { schema: SCHEMA })
phase('Check')
const c = await agent('Check docs/api.md against the code; write problems to .docs-reports/check.md.', { schema: SCHEMA })
return { write: w.status, check: c.status }
