export const meta = { name: 'deps', description: 'List the outdated dependencies' }
const DEPS = {
  type: 'object',
  properties: {
    outdated: {
      type: 'array',
      items: { type: 'object', properties: { name: { type: 'string', maxLength: 100 }, wanted: { type: 'string', maxLength: 40 } } },
    },
  },
  required: ['outdated'],
}
const r = await agent('List the outdated dependencies; write the full table to .deps-reports/outdated.md.', { schema: DEPS })
return { outdated: r.outdated.map((d) => d.name) }
