export const meta = {
  name: 'review-changes',
  description: 'Review the diff along two dimensions and verify what they find',
  phases: [{ title: 'Review' }, { title: 'Verify' }],
}

const FINDINGS_SCHEMA = {
  type: 'object',
  properties: {
    count: { type: 'integer' },
    top: { type: 'string', maxLength: 160 },
    report: { type: 'string', maxLength: 200 },
  },
  required: ['count', 'report'],
}
const CHECK_SCHEMA = {
  type: 'object',
  properties: { confirmed: { type: 'integer' }, report: { type: 'string', maxLength: 200 } },
  required: ['confirmed', 'report'],
}
const DIMENSIONS = [
  { key: 'bugs', prompt: 'Find bugs in the diff.' },
  { key: 'perf', prompt: 'Find performance problems in the diff.' },
]

const results = await pipeline(
  DIMENSIONS,
  (d) =>
    agent(`${d.prompt} Write every finding to .review-changes-reports/${d.key}.md.`, {
      label: `review:${d.key}`,
      phase: 'Review',
      schema: FINDINGS_SCHEMA,
    }),
  (review, d) =>
    agent(
      `Check the ${review.count} findings in ${review.report}; write your verdicts to .review-changes-reports/${d.key}-verified.md.`,
      { phase: 'Verify', schema: CHECK_SCHEMA },
    ),
)
return results.map((r, i) => ({ dimension: DIMENSIONS[i].key, confirmed: r?.confirmed ?? 0, report: r?.report }))
