export const meta = { name: 'fuzz', description: 'Fuzz the parser with two agents' }
const SCHEMA = { type: 'object', properties: { crashes: { type: 'integer' } }, required: ['crashes'] }
const runs = await parallel(
  [0, 1].map((i) => () =>
    agent(`Fuzz the parser with seed ${i}; write crashes to .fuzz-reports/${i}.md.`, {
      label: 'fuzz-' + Math.floor(Math.random() * 1000),
      schema: SCHEMA,
    }),
  ),
)
return { crashes: runs.reduce((n, r) => n + (r ? r.crashes : 0), 0) }
