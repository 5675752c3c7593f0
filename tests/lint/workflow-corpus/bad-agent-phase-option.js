export const meta = {
  name: 'sweep',
  description: 'Sweep the repository for stale files',
  phases: [{ title: 'Find' }, { title: 'Confirm' }],
}
const FOUND = { type: 'object', properties: { stale: { type: 'integer' } }, required: ['stale'] }
const found = await agent('Find stale files; list them in .sweep-reports/stale.md.', { phase: 'Find', schema: FOUND })
const confirmed = await agent('Confirm each file listed in .sweep-reports/stale.md; write verdicts to .sweep-reports/confirmed.md.', {
  phase: 'Verify',
  schema: FOUND,
})
return { found: found.stale, confirmed: confirmed.stale }
