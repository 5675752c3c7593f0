export const meta = {
  name: 'coverage',
  description: 'Measure the test coverage and name the weakest module',
  phases: [{ title: 'Measure', detail: 'one agent runs the suite' }],
}
phase('Measure')
const { status, percent, weakest } = await agent(
  'Run the test suite with coverage. Store the full coverage table in .coverage-reports/table.md.',
  {
    schema: {
      type: 'object',
      properties: {
        status: { enum: ['OK', 'FAILED'] },
        percent: { type: 'number' },
        weakest: { type: 'string', maxLength: 120 },
      },
      required: ['status', 'percent', 'weakest'],
    },
  },
)
return { status, percent, weakest }
