export const meta = {
  name: 'bench',
  description: 'Benchmark, then compare',
  phases: [{ title: 'Benchmark' }, { title: 'Compare' }],
}
const SCHEMA = { type: 'object', properties: { ms: { type: 'number' } }, required: ['ms'] }
phase('Benchmark')
const before = await agent('Benchmark the main branch; write the timings to .bench-reports/main.md.', { schema: SCHEMA })
phase('compare')
const after = await agent('Benchmark this branch; write the timings to .bench-reports/branch.md.', { schema: SCHEMA })
return { speedup: before.ms / after.ms }
