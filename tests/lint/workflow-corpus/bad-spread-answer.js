export const meta = { name: 'probe', description: 'Probe the API endpoints one by one' }
const PROBE = {
  type: 'object',
  properties: { code: { type: 'integer' }, body: { type: 'string', maxLength: 4000 } },
  required: ['code'],
}
const ENDPOINTS = ['/health', '/ready']
const out = []
for (const endpoint of ENDPOINTS) {
  const r = await agent(`Call ${endpoint} and write the response to .probe-reports/${endpoint.slice(1)}.md.`, { schema: PROBE })
  out.push({ endpoint, ...r })
}
return out
