export const meta = {
  name: 'ship',
  description: 'Run the release check, then write the changelog',
  phases: [{ title: 'Check' }, { title: 'Changelog' }],
}
phase('Check')
const check = await workflow('release-check', { skip: args.skip })
phase('Changelog')
const LOG = {
  type: 'object',
  properties: { entries: { type: 'integer' }, path: { type: 'string', maxLength: 200 } },
  required: ['entries', 'path'],
}
const log = await agent('Write the changelog for this release to .ship-reports/CHANGELOG.md and count its entries.', {
  schema: LOG,
})
return { checked: check ? check.steps.length : 0, entries: log.entries, changelog: log.path }
