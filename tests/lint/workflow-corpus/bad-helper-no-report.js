export const meta = { name: 'explainer', description: 'Explain two modules' }
const explain = (mod) => `Read src/${mod}/index.js and explain what the module does.`
const OUT = { type: 'object', properties: { words: { type: 'integer' } }, required: ['words'] }
const totals = []
for (const mod of ['core', 'cli']) {
  const r = await agent(explain(mod), { schema: OUT })
  totals.push(r.words)
}
return { words: totals }
