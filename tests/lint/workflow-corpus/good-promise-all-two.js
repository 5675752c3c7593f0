export const meta = { name: 'compare', description: 'Compare two designs side by side' }
const SCORE = {
  type: 'object',
  properties: { score: { type: 'number', minimum: 0, maximum: 10 }, report: { type: 'string', maxLength: 200 } },
  required: ['score', 'report'],
}
const [a, b] = await Promise.all([
  agent('Score design A in docs/design-a.md; write your reasoning to .compare-reports/a.md.', { schema: SCORE }),
  agent('Score design B in docs/design-b.md; write your reasoning to .compare-reports/b.md.', { schema: SCORE }),
])
return { winner: a.score >= b.score ? 'A' : 'B', reports: [a.report, b.report] }
