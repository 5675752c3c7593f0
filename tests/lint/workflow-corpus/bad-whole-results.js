export const meta = { name: 'twins', description: 'Ask two reviewers and hand back what they said' }
const REVIEW = {
  type: 'object',
  properties: {
    verdict: { enum: ['approve', 'reject'] },
    comments: { type: 'array', maxItems: 20, items: { type: 'string', maxLength: 300 } },
  },
  required: ['verdict', 'comments'],
}
const reviews = await parallel(
  ['strict', 'lenient'].map((style) => () =>
    agent(`Review the diff in a ${style} style; write the full review to .twins-reports/${style}.md.`, { schema: REVIEW }),
  ),
)
return { reviews }
