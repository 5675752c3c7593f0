export const meta = { name: 'trio', description: 'Three reviewers at once' }
const V = { type: 'object', properties: { approve: { type: 'boolean' } }, required: ['approve'] }
const votes = await parallel([
  () => agent('Review the diff for correctness; write the review to .trio-reports/correctness.md.', { schema: V }),
  () => agent('Review the diff for security; write the review to .trio-reports/security.md.', { schema: V }),
  () => agent('Review the diff for style; write the review to .trio-reports/style.md.', { schema: V }),
])
return { approvals: votes.filter((v) => v && v.approve).length }
