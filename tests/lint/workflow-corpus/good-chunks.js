export const meta = {
  name: 'doc-review',
  description: 'Review every docs page in batches',
  phases: [{ title: 'Review' }],
}
const MAX_AT_ONCE = 2
function chunks(list, size) {
  const out = []
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size))
  return out
}
const VERDICT = {
  type: 'object',
  properties: {
    verdict: { type: 'string', enum: ['ok', 'needs-work'] },
    problems: { type: 'integer', minimum: 0 },
  },
  required: ['verdict', 'problems'],
}
phase('Review')
let needsWork = 0
let reviewed = 0
for (const batch of chunks(args.pages, MAX_AT_ONCE)) {
  const verdicts = await parallel(
    batch.map((page) => async () => {
      return agent(`Review the docs page ${page} for accuracy. Save your notes to .doc-review-reports/${page}.md.`, {
        schema: VERDICT,
      })
    }),
  )
  for (const v of verdicts) {
    if (!v) continue
    reviewed += 1
    if (v.verdict === 'needs-work') needsWork += 1
  }
}
return { reviewed, needsWork, reports: '.doc-review-reports/' }
