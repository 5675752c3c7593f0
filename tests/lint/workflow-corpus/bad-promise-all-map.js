export const meta = { name: 'pkg-audit', description: 'Audit every package of the monorepo' }
const AUDIT = { type: 'object', properties: { vulns: { type: 'integer' } }, required: ['vulns'] }
const audits = await Promise.all(
  args.packages.map(async (pkg) => {
    const r = await agent(`Audit ${pkg}; write the vulnerabilities to .pkg-audit-reports/${pkg}.md.`, { schema: AUDIT })
    return r ? r.vulns : 0
  }),
)
return { vulns: audits.reduce((a, b) => a + b, 0) }
