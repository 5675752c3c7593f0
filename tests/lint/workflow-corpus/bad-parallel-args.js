export const meta = { name: 'fanout', description: 'Review every file at once' }
const SCHEMA = { type: 'object', properties: { issues: { type: 'integer' } }, required: ['issues'] }
const results = await parallel(
  args.files.map((f) => () => agent(`Review ${f}; write the issues to .fanout-reports/${f}.md.`, { schema: SCHEMA })),
)
return { issues: results.filter(Boolean).reduce((n, r) => n + r.issues, 0) }
