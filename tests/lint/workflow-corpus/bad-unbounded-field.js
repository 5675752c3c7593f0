export const meta = { name: 'owners', description: 'Find the owner of each module' }
const OWNER = {
  type: 'object',
  properties: {
    owner: { type: 'string', maxLength: 80 },
    reasoning: { type: 'string' },
  },
  required: ['owner', 'reasoning'],
}
const MODULES = ['api', 'cli']
const found = []
for (const m of MODULES) {
  const r = await agent(`Find who owns the ${m} module; write the evidence to .owners-reports/${m}.md.`, { schema: OWNER })
  found.push({ module: m, owner: r.owner, why: r.reasoning })
}
return { found }
