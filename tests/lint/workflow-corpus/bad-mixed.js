export const meta = { name: 'everything', description: 'Breaks three protocol rules at once' }
const findings = await parallel(
  args.dirs.map((d) => () => agent(`Look through ${d} for problems and describe each one in detail.`)),
)
return { findings }
