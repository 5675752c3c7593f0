export const meta = {
  name: 'release-check',
  description: 'Check a release step by step: survey, analyze, verify, summarize',
  phases: [{ title: 'survey' }, { title: 'analyze' }, { title: 'verify' }, { title: 'summarize' }],
}

// one agent per step, one at a time; the orchestrator records progress with state.py
const REPORTS = '.release-check-reports'
const STEPS = [
  { name: 'survey', job: 'List what changed since the last tag.' },
  { name: 'analyze', job: 'Analyze the risky changes.' },
  { name: 'verify', job: 'Verify the analysis against the tests.' },
  { name: 'summarize', job: 'Summarize the release readiness.' },
]
const RESULT = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['COMPLETE', 'PARTIAL', 'FAILED'] },
    summary: { type: 'string', maxLength: 400 },
    report: { type: 'string', maxLength: 200 },
  },
  required: ['status', 'summary', 'report'],
  additionalProperties: false,
}
const skip = new Set((args && args.skip) || [])
const done = []
for (const step of STEPS) {
  if (skip.has(step.name)) continue
  phase(step.name)
  const report = `${REPORTS}/${step.name}.md`
  const r = await agent(
    `${step.job}\n\nWrite your full result to ${report}. Answer with the status, a short summary and the report path.`,
    { label: step.name, schema: RESULT },
  )
  done.push({ step: step.name, status: r ? r.status : 'FAILED', report })
}
return { steps: done, skipped: [...skip] }
