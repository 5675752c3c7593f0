export const meta = { name: 'typed', description: 'Written in TypeScript by mistake' }
interface Verdict {
  status: 'OK' | 'FAILED'
}
const SCHEMA = { type: 'object', properties: { status: { enum: ['OK', 'FAILED'] } } }
const r: Verdict = await agent('Check the types; write the errors to .typed-reports/tsc.md.', { schema: SCHEMA })
return { status: r.status }
