export const meta = { name: 'migrate', description: 'Migrate the packages one after the other' }
const STEP = {
  type: 'object',
  properties: { status: { enum: ['MIGRATED', 'SKIPPED', 'FAILED'] } },
  required: ['status'],
}
const statuses = []
await args.packages.reduce(
  (previous, pkg) =>
    previous.then(() =>
      agent(`Migrate ${pkg} to the new API. Record every change in .migrate-reports/${pkg}.md.`, { schema: STEP }).then(
        (r) => statuses.push(r?.status ?? 'FAILED'),
      ),
    ),
  Promise.resolve(),
)
return { migrated: statuses.filter((s) => s === 'MIGRATED').length, total: statuses.length }
