export const meta = {
  name: 'five-checks',
  description: 'Five checks through a pipeline',
  phases: [{ title: 'Check' }],
}
const CHECKS = ['lint', 'types', 'tests', 'docs', 'licences']
const RESULT = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] }
const results = await pipeline(CHECKS, (c) =>
  agent(`Run the ${c} check; write its output to .five-checks-reports/${c}.md.`, { phase: 'Check', schema: RESULT }),
)
return { failed: results.filter((r) => !r || !r.ok).length }
